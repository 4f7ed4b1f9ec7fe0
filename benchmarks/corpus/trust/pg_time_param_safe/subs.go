// Package pg_time_param_safe charges a subscription's credits for a
// renewal until a date the caller passes as a time.Time, bound directly
// to the UPDATE, which charges only where the credits cover the cost.
package pg_time_param_safe

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
	_, err := db.ExecContext(ctx, "UPDATE subscriptions SET credits = credits - $1, renews_at = $2 WHERE id = $3 AND credits >= $1", cost, until, id)
	return err
}
