// Package dynamic_table_safe takes units out of single products or bundles,
// which live in two tables of the same shape.
package dynamic_table_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var (
	ErrInvalidQuantity = errors.New("inventory: quantity must be positive")
	ErrOutOfStock      = errors.New("inventory: out of stock")
)

// Store is the inventory repository.
type Store struct{ db *sql.DB }

func tableFor(bundle bool) string {
	if bundle {
		return "bundles"
	}
	return "products"
}

// Take removes qty units of item id from the products or bundles table.
func (s *Store) Take(ctx context.Context, id, qty int64, bundle bool) error {
	if qty <= 0 {
		return ErrInvalidQuantity
	}
	q := fmt.Sprintf("UPDATE %s SET stock = stock - ? WHERE id = ? AND stock >= ?", tableFor(bundle))
	res, err := s.db.ExecContext(ctx, q, qty, id, qty)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrOutOfStock
	}
	return nil
}
