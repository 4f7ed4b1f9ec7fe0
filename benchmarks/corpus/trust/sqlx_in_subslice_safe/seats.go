// Package seats releases held seats (MySQL, sqlx): the batch's first id is
// a header the job skips; every other event is checked to hold a seat, in
// a transaction that locks it, before one UPDATE expands the same events
// (sliced again) into its IN list with sqlx.In.
package seats

import (
	"context"
	"errors"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
)

// ErrNotHeld is returned when an event of the batch holds no seat.
var ErrNotHeld = errors.New("no seat held")

// ReleaseRest gives back one held seat of every event in ids[1:], after
// checking that each one holds a seat.
func ReleaseRest(ctx context.Context, db *sqlx.DB, ids []int64) error {
	if len(ids) != 2 {
		return errors.New("a header and one event")
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range ids[1:] {
		var held int64
		if err := tx.QueryRowContext(ctx, `SELECT held FROM events WHERE id = ? FOR UPDATE`, id).Scan(&held); err != nil {
			return err
		}
		if held <= 0 {
			return ErrNotHeld
		}
	}
	q, args, err := sqlx.In(`UPDATE events SET held = held - 1 WHERE id IN (?)`, ids[1:])
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return err
	}
	return tx.Commit()
}
