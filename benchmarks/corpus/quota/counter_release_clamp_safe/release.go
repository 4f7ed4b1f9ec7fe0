// Package counter_release_clamp_safe tracks in-flight requests per client
// (a concurrency limiter): acquire adds, release gives slots back.
package counter_release_clamp_safe

import (
	"context"
	"database/sql"
)

type Counters struct {
	db *sql.DB
}

// Release gives n in-flight slots of counter id back. Clients that crash
// and retry may release more than they hold, so the release is clamped.
func (c *Counters) Release(ctx context.Context, id, n int64) (int64, error) {
	var hits int64
	if err := c.db.QueryRowContext(ctx, "SELECT hits FROM counters WHERE id = ?", id).Scan(&hits); err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, nil // nothing to give back (and hits - n could wrap around)
	}
	if n > hits {
		n = hits // never release more than is held
	}
	remaining := hits - n
	if _, err := c.db.ExecContext(ctx, "UPDATE counters SET hits = ? WHERE id = ?", remaining, id); err != nil {
		return 0, err
	}
	if _, err := c.db.ExecContext(ctx, "INSERT INTO counter_log (counter_id, released) VALUES (?, ?)", id, n); err != nil {
		return 0, err
	}
	return remaining, nil
}
