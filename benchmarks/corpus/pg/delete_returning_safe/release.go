// Package delete_returning_safe cancels stock reservations: the
// reservation row is deleted and the quantity it held, which DELETE …
// RETURNING hands back, goes back on the shelf, within its capacity.
package delete_returning_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// ErrShelfFull is returned when the released quantity does not fit.
var ErrShelfFull = errors.New("stock: shelf full")

// Store is the warehouse's stock and its reservations.
type Store struct{ DB *sql.DB }

// Cancel deletes reservation id and returns its quantity to the item's
// stock, refusing (and keeping the reservation) when the shelf cannot
// take it.
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
	res, err := tx.ExecContext(ctx, "UPDATE stock SET on_hand = on_hand + $1 WHERE item_id = $2 AND on_hand + $1 <= capacity", qty, item)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrShelfFull
	}
	return tx.Commit()
}
