// Package clock_field_safe is a fixed-window rate limiter whose clock is
// injected (a func field the tests replace): a call through it is an
// outside call with an arbitrary result, as time.Now() would be. A new
// window starts the count again, but never above the limit.
package clock_field_safe

import (
	"context"
	"database/sql"
	"errors"
	"time"

	_ "github.com/lib/pq"
)

// Window is the length of a window, in seconds.
const Window = 60

// ErrLimited is returned when a request would pass the limit.
var ErrLimited = errors.New("limiter: too many requests")

// Limiter counts requests per client.
type Limiter struct {
	db  *sql.DB
	now func() int64 // unix seconds
}

// New returns a limiter over db with the wall clock.
func New(db *sql.DB) *Limiter {
	return &Limiter{db: db, now: func() int64 { return time.Now().Unix() }}
}

// Take counts n requests of client.
func (l *Limiter) Take(ctx context.Context, client, n int64) error {
	if n <= 0 {
		return errors.New("limiter: bad count")
	}
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var used, max, start int64
	if err := tx.QueryRowContext(ctx, `SELECT used, max_per_window, window_start FROM limits WHERE client_id = $1 FOR UPDATE`, client).Scan(&used, &max, &start); err != nil {
		return err
	}
	now := l.now()
	if now-start >= Window {
		// A new window.
		if n > max {
			return ErrLimited
		}
		if _, err := tx.ExecContext(ctx, `UPDATE limits SET used = $1, window_start = $2 WHERE client_id = $3`, n, now, client); err != nil {
			return err
		}
		return tx.Commit()
	}
	if n > max-used {
		return ErrLimited
	}
	if _, err := tx.ExecContext(ctx, `UPDATE limits SET used = used + $1 WHERE client_id = $2`, n, client); err != nil {
		return err
	}
	return tx.Commit()
}
