// Package check_other_table_safe records a return and credits the
// customer; the returns table's CHECK rejects non-positive quantities.
package check_other_table_safe

import (
	"context"
	"database/sql"
)

const (
	insertReturn = "INSERT INTO returns (order_id, qty) VALUES (?, ?)"
	creditStock  = "UPDATE products SET stock = stock + ? WHERE id = ?"
)

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// Return puts qty units of product back on the shelf.
func (s *Store) Return(ctx context.Context, orderID, productID, qty int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The schema's CHECK (qty > 0) makes this fail for qty <= 0.
	if _, err := tx.ExecContext(ctx, insertReturn, orderID, qty); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, creditStock, qty, productID); err != nil {
		return err
	}
	return tx.Commit()
}
