// Package seats releases the seats a cleanup job finds held (MySQL, sqlx).
// The job's list of events is expanded into the statement's IN list by
// sqlx.In, and the statement's text goes through Rebind unchanged.
package seats

import (
	"context"
	"errors"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
)

// ErrNoEvents is returned for an empty batch.
var ErrNoEvents = errors.New("no events")

// ReleaseAll gives back one held seat of every event in ids.
//
// BUG: it trusts the ids: an event with no seat held goes to held = -1.
func ReleaseAll(ctx context.Context, db *sqlx.DB, ids []int64) error {
	if len(ids) == 0 {
		return ErrNoEvents
	}
	q, args, err := sqlx.In(`UPDATE events SET held = held - 1 WHERE id IN (?)`, ids)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, db.Rebind(q), args...)
	return err
}
