// Package counter_reset_safe manages fixed-window rate counters.
package counter_reset_safe

import (
	"context"
	"database/sql"
)

type Counters struct {
	db *sql.DB
}

func New(db *sql.DB) *Counters { return &Counters{db: db} }

// ResetWindow starts a new window for every counter of bucket.
func (c *Counters) ResetWindow(ctx context.Context, bucket string, windowStart int64) (int64, error) {
	res, err := c.db.ExecContext(ctx,
		"UPDATE counters SET hits = 0, window_start = ? WHERE bucket = ? AND window_start < ?",
		windowStart, bucket, windowStart)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Purge deletes counters that have not been touched since before cutoff.
func (c *Counters) Purge(ctx context.Context, cutoff int64) error {
	_, err := c.db.ExecContext(ctx, "DELETE FROM counters WHERE window_start < ?", cutoff)
	return err
}
