// Package restock_clamp_unsafe applies stock-count corrections to warehouse
// bins.
package restock_clamp_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrNoChange = errors.New("inventory: correction of zero units")

const (
	lockProduct = "SELECT stock, capacity FROM products WHERE id = ? FOR UPDATE"
	setStock    = "UPDATE products SET stock = ? WHERE id = ?"
)

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// Adjust applies a stock-count correction of delta units (negative for
// shrinkage) to product id and returns the new stock. The stock never
// exceeds the bin capacity.
func (s *Store) Adjust(ctx context.Context, id, delta int64) (int64, error) {
	if delta == 0 {
		return 0, ErrNoChange
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var stock, capacity int64
	if err := tx.QueryRowContext(ctx, lockProduct, id).Scan(&stock, &capacity); err != nil {
		return 0, err
	}
	newStock := stock + delta
	if newStock > capacity {
		newStock = capacity
	}
	if _, err := tx.ExecContext(ctx, setStock, newStock, id); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return newStock, nil
}
