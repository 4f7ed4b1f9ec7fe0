// Package dates holds a subscription's credits back until a renewal
// date computed with time.Now().Add: a trace prints the date bound to
// the UPDATE as the engine reads it.
package dates

import (
	"context"
	"database/sql"
	"time"

	_ "github.com/lib/pq"
)

// Renew takes cost credits and pushes the renewal a period further.
func Renew(ctx context.Context, db *sql.DB, id, cost int64, days int) error {
	if cost < 0 {
		return nil
	}
	next := time.Now().Add(time.Duration(days) * 24 * time.Hour)
	_, err := db.ExecContext(ctx, "UPDATE subscriptions SET credits = credits - $1, renews_at = $2 WHERE id = $3", cost, next, id)
	return err
}
