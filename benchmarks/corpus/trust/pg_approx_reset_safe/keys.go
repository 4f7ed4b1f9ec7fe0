// Package pg_approx_reset_safe meters API keys: each key has a quota of
// calls per period and a count of calls used, reset by a cron job when
// the period expires. The run checks used <= quota and used >= 0
// together. The resets compute the next reset time with time.Add, which
// the model does not compute: the value only goes to reset_at, which
// neither constraint reads (ResetExpired), or also to a sanity check of
// the clock (RenewChecked). Alone, used <= quota can be broken from a
// row with used < 0 (a reset to 0 exceeds a negative quota); from rows
// that keep both constraints, which every entry keeps, it cannot.
package pg_approx_reset_safe

import (
	"context"
	"database/sql"
	"errors"
	"time"

	_ "github.com/lib/pq"
)

// ErrClock is returned when the clock runs backwards.
var ErrClock = errors.New("clock went backwards")

// ErrQuota is returned when a call would exceed the key's quota.
var ErrQuota = errors.New("quota exceeded")

// Keys meters API keys.
type Keys struct{ DB *sql.DB }

// ResetExpired zeroes the counters of the expired keys and schedules
// their next reset a day later.
func (k *Keys) ResetExpired(ctx context.Context, now time.Time) error {
	_, err := k.DB.ExecContext(ctx,
		`UPDATE api_keys SET used = 0, reset_at = $1 WHERE reset_at < $2`,
		now.Add(24*time.Hour), now)
	return err
}

// RenewChecked is ResetExpired with a sanity check of the computed time.
func (k *Keys) RenewChecked(ctx context.Context, now time.Time) error {
	next := now.Add(24 * time.Hour)
	if !next.After(now) {
		return ErrClock
	}
	_, err := k.DB.ExecContext(ctx,
		`UPDATE api_keys SET used = 0, reset_at = $1 WHERE reset_at < $2`, next, now)
	return err
}

// Consume counts n calls of key, within its quota.
func (k *Keys) Consume(ctx context.Context, key string, n int64) error {
	if n <= 0 {
		return ErrQuota
	}
	res, err := k.DB.ExecContext(ctx,
		`UPDATE api_keys SET used = used + $2 WHERE key_id = $1 AND used + $2 <= quota`, key, n)
	if err != nil {
		return err
	}
	if c, err := res.RowsAffected(); err != nil || c == 0 {
		return ErrQuota
	}
	return nil
}
