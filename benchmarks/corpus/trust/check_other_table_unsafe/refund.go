// Package check_other_table_unsafe records a return and credits the
// customer; the returns table's CHECK only rejects zero quantities.
package check_other_table_unsafe

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
	// BUG: the schema's CHECK (qty <> 0) lets a negative quantity through.
	if _, err := tx.ExecContext(ctx, insertReturn, orderID, qty); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, creditStock, qty, productID); err != nil {
		return err
	}
	return tx.Commit()
}
