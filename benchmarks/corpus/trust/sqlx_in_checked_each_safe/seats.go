// Package seats releases held seats (MySQL, sqlx): every event of the
// batch is checked to hold a seat, in a transaction that locks it, before
// one UPDATE expands the batch into its IN list with sqlx.In.
package seats

import (
	"context"
	"errors"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
)

// ErrNotHeld is returned when an event of the batch holds no seat.
var ErrNotHeld = errors.New("no seat held")

// ReleaseChecked gives back one held seat of every event in ids, after
// checking that each one holds a seat.
func ReleaseChecked(ctx context.Context, db *sqlx.DB, ids []int64) error {
	if len(ids) != 1 {
		return errors.New("one event at a time")
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range ids {
		var held int64
		if err := tx.QueryRowContext(ctx, `SELECT held FROM events WHERE id = ? FOR UPDATE`, id).Scan(&held); err != nil {
			return err
		}
		if held <= 0 {
			return ErrNotHeld
		}
	}
	q, args, err := sqlx.In(`UPDATE events SET held = held - 1 WHERE id IN (?)`, ids)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return err
	}
	return tx.Commit()
}
