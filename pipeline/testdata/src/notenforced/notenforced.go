// Package notenforced records a return and puts the quantity back on the
// shelf, relying on the returns table's CHECK (qty > 0) to refuse a
// negative quantity.
package notenforced

import (
	"context"
	"database/sql"
)

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// Return puts qty units of product back on the shelf: the INSERT fails for
// qty <= 0 if (and only if) the engine enforces the CHECK.
func (s *Store) Return(ctx context.Context, orderID, productID, qty int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO returns (order_id, qty) VALUES (?, ?)", orderID, qty); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = stock + ? WHERE id = ?", qty, productID); err != nil {
		return err
	}
	return tx.Commit()
}
