// Package condsql_lock_unsafe: the SELECT gets " FOR UPDATE" appended when the caller asks
// for a lock; both callers pass a constant. The guard forgets n: it only
// refuses an event already overbooked.
package condsql_lock_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

var ErrFull = errors.New("not enough seats")

func hold(ctx context.Context, db *sql.DB, id, n int64, lock bool) error {
	if n < 1 || n > 8 {
		return errors.New("bad n")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	q := `SELECT held, seats FROM events WHERE id = ?`
	if lock {
		q += ` FOR UPDATE`
	}
	var held, seats int64
	if err := tx.QueryRowContext(ctx, q, id).Scan(&held, &seats); err != nil {
		return err
	}
	if held > seats {
		return ErrFull
	}
	if _, err := tx.ExecContext(ctx, `UPDATE events SET held = held + ? WHERE id = ?`, n, id); err != nil {
		return err
	}
	return tx.Commit()
}

func Hold(ctx context.Context, db *sql.DB, id, n int64) error { return hold(ctx, db, id, n, false) }

func HoldLocked(ctx context.Context, db *sql.DB, id, n int64) error {
	return hold(ctx, db, id, n, true)
}
