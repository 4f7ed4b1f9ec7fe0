// Package timecol charges the subscriptions due before a date.
package timecol

import (
	"context"
	"database/sql"
	"time"

	_ "github.com/lib/pq"
)

// ChargeDue charges cost credits to the subscription id if it renews
// before cutoff.
func ChargeDue(ctx context.Context, db *sql.DB, id, cost int64, cutoff time.Time) error {
	if cost < 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE subscriptions SET credits = credits - $1 WHERE id = $2 AND renews_at < $3", cost, id, cutoff)
	return err
}
