// Package restock_clamp_safe books supplier deliveries into warehouse bins.
package restock_clamp_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInvalidQuantity = errors.New("inventory: quantity must be positive")

const (
	lockProduct = "SELECT stock, capacity FROM products WHERE id = ? FOR UPDATE"
	setStock    = "UPDATE products SET stock = ? WHERE id = ?"
)

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// Restock books a delivery of qty units of product id and returns the new
// stock. Units that do not fit in the bin go back to the supplier.
func (s *Store) Restock(ctx context.Context, id, qty int64) (int64, error) {
	if qty <= 0 {
		return 0, ErrInvalidQuantity
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
	// Compared as room left, not as stock + qty > capacity: a huge qty
	// would make the sum wrap around to a negative stock.
	newStock := capacity
	if qty <= capacity-stock {
		newStock = stock + qty
	}
	if _, err := tx.ExecContext(ctx, setStock, newStock, id); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return newStock, nil
}
