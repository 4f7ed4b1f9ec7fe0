// Package booking books seats on SQLite: booked+n wraps around in Go for
// booked near MaxInt64, so the check passes, and SQLite stores the
// overflowing booked + n as a REAL.
package booking

import (
	"context"
	"database/sql"
	"errors"
)

// ErrFull rejects a booking beyond the show's capacity.
var ErrFull = errors.New("show is full")

// Book books n seats of a show.
func Book(ctx context.Context, db *sql.DB, show, n int64) error {
	if n <= 0 || n > 10 {
		return errors.New("bad n")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var booked, capacity int64
	if err := tx.QueryRowContext(ctx, `SELECT booked, capacity FROM shows WHERE id = ?`, show).Scan(&booked, &capacity); err != nil {
		return err
	}
	if booked+n > capacity {
		return ErrFull
	}
	if _, err := tx.ExecContext(ctx, `UPDATE shows SET booked = booked + ? WHERE id = ?`, n, show); err != nil {
		return err
	}
	return tx.Commit()
}
