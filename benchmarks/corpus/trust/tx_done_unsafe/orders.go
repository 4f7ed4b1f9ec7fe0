// Package tx_done_unsafe ships an order and, after the commit, takes a
// sample unit through the pool: that statement commits on its own.
package tx_done_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var ErrOutOfStock = errors.New("orders: out of stock")

// Store holds the shop's database.
type Store struct{ db *sql.DB }

// Ship takes qty units of product sku out of stock.
func (s *Store) Ship(ctx context.Context, sku string, qty int64) error {
	if qty <= 0 {
		return errors.New("orders: quantity must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, "UPDATE products SET stock = stock - ? WHERE sku = ? AND stock >= ?", qty, sku, qty)
	if err != nil {
		tx.Rollback()
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		tx.Rollback()
		return ErrOutOfStock
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	// One more unit for the quality sample, auto-committed on the pool;
	// the stock check above did not count it.
	_, _ = s.db.ExecContext(ctx, "UPDATE products SET stock = stock - 1 WHERE sku = ?", sku)
	return nil
}
