package stock

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Storage keeps the generated queries behind their interface, as
// services written over sqlc's emit_interface do.
type Storage struct {
	Querier Querier
	pool    *pgxpool.Pool
}

// NewStorage wraps a pool.
func NewStorage(pool *pgxpool.Pool) *Storage {
	return &Storage{Querier: New(pool), pool: pool}
}

// ExecWithTx runs fn with the queries bound to a new transaction, and
// commits unless fn fails.
func (s *Storage) ExecWithTx(ctx context.Context, fn func(Querier) error) error {
	q := s.Querier.(*Queries)
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := fn(q.WithTx(tx)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// AddStock adds quantity (of any sign) to the product's stock.
func (s *Storage) AddStock(ctx context.Context, id int64, quantity int32) error {
	return s.ExecWithTx(ctx, func(q Querier) error {
		st, err := q.GetStock(ctx, id)
		if err != nil {
			return err
		}
		// bug: a negative quantity may take the stock below what is reserved
		return q.UpdateStockQuantity(ctx, UpdateStockQuantityParams{ID: id, Quantity: st.Quantity + quantity})
	})
}
