// Package delete_returning_unsafe cancels stock reservations: the
// reservation row is deleted and the quantity it held, which DELETE …
// RETURNING hands back, goes back on the shelf.
package delete_returning_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Store is the warehouse's stock and its reservations.
type Store struct{ DB *sql.DB }

// Cancel deletes reservation id and returns its quantity to the item's
// stock. Nothing caps the stock at the shelf's capacity: a shelf
// restocked while the reservation was held overflows.
func (s *Store) Cancel(ctx context.Context, id int64) error {
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var item, qty int64
	err = tx.QueryRowContext(ctx, "DELETE FROM reservations WHERE id = $1 RETURNING item_id, qty", id).Scan(&item, &qty)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE stock SET on_hand = on_hand + $1 WHERE item_id = $2", qty, item); err != nil {
		return err
	}
	return tx.Commit()
}
