// Package timeparam binds a time.Time parameter directly to an UPDATE.
package timeparam

import (
	"context"
	"database/sql"
	"time"

	_ "github.com/lib/pq"
)

// Extend charges cost credits and moves the renewal to until.
func Extend(ctx context.Context, db *sql.DB, id, cost int64, until time.Time) error {
	if cost < 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE subscriptions SET credits = credits - $1, renews_at = $2 WHERE id = $3", cost, until, id)
	return err
}
