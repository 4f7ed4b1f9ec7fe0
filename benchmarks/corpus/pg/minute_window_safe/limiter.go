// Package minute_window_safe counts each user's hits per minute, the
// counter keyed by the minute the clock reads.
package minute_window_safe

import (
	"context"
	"database/sql"
	"time"

	_ "github.com/lib/pq"
)

type Limiter struct{ db *sql.DB }

func New(db *sql.DB) *Limiter { return &Limiter{db: db} }

// Hit adds cost to the counter of the current minute where it has room
// for cost.
func (l *Limiter) Hit(ctx context.Context, user string, cost int64) error {
	if cost < 1 || cost > 100 {
		return nil
	}
	window := time.Now().Truncate(time.Minute).Unix()
	_, err := l.db.ExecContext(ctx, `
		INSERT INTO rate_limits (user_id, window_start, hits, max_hits) VALUES ($1, $2, $3, 100)
		ON CONFLICT (user_id, window_start) DO UPDATE SET hits = rate_limits.hits + excluded.hits
		WHERE rate_limits.hits + excluded.hits <= rate_limits.max_hits`, user, window, cost)
	return err
}
