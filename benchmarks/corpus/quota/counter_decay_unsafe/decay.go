// Package counter_decay_unsafe implements leaky-bucket rate counters: every
// request adds a hit, a periodic job lets hits leak out.
package counter_decay_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrBadStep = errors.New("ratelimit: leak step must be positive")

const (
	hitSQL  = "UPDATE counters SET hits = hits + 1 WHERE bucket = ? AND name = ?"
	leakSQL = "UPDATE counters SET hits = hits - ? WHERE bucket = ? AND hits > 0"
)

// Hit records one request of name in bucket.
func Hit(ctx context.Context, db *sql.DB, bucket, name string) error {
	_, err := db.ExecContext(ctx, hitSQL, bucket, name)
	return err
}

// Leak removes step hits from every non-empty counter of bucket.
func Leak(ctx context.Context, db *sql.DB, bucket string, step int64) (int64, error) {
	if step <= 0 {
		return 0, ErrBadStep
	}
	res, err := db.ExecContext(ctx, leakSQL, step, bucket)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
