// Package shows moves seats between two shows: the first UPDATE changes
// another row than the one the counterexample watches, which the trace
// must not print as the watched row's value.
package shows

import (
	"context"
	"database/sql"
	"errors"
)

// ErrBadRequest rejects a move the shows cannot take.
var ErrBadRequest = errors.New("bad request")

// MoveBooking moves n seats from one show to another without checking
// the second show's capacity.
func MoveBooking(ctx context.Context, db *sql.DB, fromShow, toShow, n int64) error {
	if n <= 0 || fromShow == toShow {
		return ErrBadRequest
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var booked int64
	if err := tx.QueryRowContext(ctx, "SELECT booked FROM shows WHERE id = $1 FOR UPDATE", fromShow).Scan(&booked); err != nil {
		return err
	}
	if booked < n {
		return ErrBadRequest
	}
	if _, err := tx.ExecContext(ctx, "UPDATE shows SET booked = booked - $1 WHERE id = $2", n, fromShow); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE shows SET booked = booked + $1 WHERE id = $2", n, toShow); err != nil {
		return err
	}
	return tx.Commit()
}
