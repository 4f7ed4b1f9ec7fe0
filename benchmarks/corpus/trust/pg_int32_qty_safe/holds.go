// Package holds reserves stock for carts; its generated query parameters
// (sqlc style) are int32 where the column is INTEGER.
package holds

import (
	"context"
	"database/sql"
	"errors"
	"math"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrBadQty rejects a quantity the store does not accept.
var ErrBadQty = errors.New("holds: bad quantity")

// ReserveParams are the parameters of the generated reserve query.
type ReserveParams struct {
	ID  int64
	Qty int32
}

// Store is the stock store.
type Store struct{ db *sql.DB }

// Open connects to dsn.
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// reserve is the generated query: it holds arg.Qty units if stock allows.
func (s *Store) reserve(ctx context.Context, arg ReserveParams) (int64, error) {
	res, err := s.db.ExecContext(ctx,
		`UPDATE products SET reserved = reserved + $1 WHERE id = $2 AND reserved + $1 <= stock`, arg.Qty, arg.ID)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Reserve holds qty units of product id (qty comes from the cart request,
// parsed as an int64).
func (s *Store) Reserve(ctx context.Context, id, qty int64) error {
	if qty <= 0 || qty > math.MaxInt32 {
		return ErrBadQty
	}
	_, err := s.reserve(ctx, ReserveParams{ID: id, Qty: int32(qty)})
	return err
}
