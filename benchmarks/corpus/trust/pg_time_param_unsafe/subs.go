// Package pg_time_param_unsafe charges a subscription's credits for a
// renewal until a date the caller passes as a time.Time, bound directly
// to the UPDATE; the charge is not checked against the credits left.
package pg_time_param_unsafe

import (
	"context"
	"database/sql"
	"time"

	_ "github.com/lib/pq"
)

// Renew charges cost credits and moves the renewal to until.
func Renew(ctx context.Context, db *sql.DB, id, cost int64, until time.Time) error {
	if cost < 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE subscriptions SET credits = credits - $1, renews_at = $2 WHERE id = $3", cost, until, id)
	return err
}
