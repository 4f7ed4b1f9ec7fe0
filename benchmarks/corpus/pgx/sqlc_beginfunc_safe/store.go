package shop

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrOutOfStock is returned when a reservation asks for more than is left.
var ErrOutOfStock = errors.New("out of stock")

// Store runs the generated queries, alone or in transactions.
type Store struct {
	*Queries
	pool *pgxpool.Pool
}

// NewStore wraps a pool.
func NewStore(pool *pgxpool.Pool) *Store {
	return &Store{Queries: New(pool), pool: pool}
}

// Reserve takes quantity items of a product and records the reservation.
func (s *Store) Reserve(ctx context.Context, productID int64, quantity int32) (int64, error) {
	if quantity <= 0 {
		return 0, fmt.Errorf("quantity %d must be positive", quantity)
	}
	var id int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		q := s.WithTx(tx)
		p, err := q.GetProductForUpdate(ctx, productID)
		if err != nil {
			return fmt.Errorf("product %d: %w", productID, err)
		}
		if p.Stock < quantity {
			return ErrOutOfStock
		}
		n, err := q.TakeStock(ctx, TakeStockParams{ID: productID, Quantity: quantity})
		if err != nil {
			return err
		}
		if n != 1 {
			return fmt.Errorf("product %d vanished", productID)
		}
		id, err = q.CreateReservation(ctx, CreateReservationParams{ProductID: productID, Quantity: quantity})
		return err
	})
	return id, err
}
