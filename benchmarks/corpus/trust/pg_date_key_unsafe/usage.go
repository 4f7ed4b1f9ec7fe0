// Package pg_date_key_unsafe counts API calls per user and calendar day
// (a DATE column, part of the key) with an UPSERT, refusing calls past
// the daily limit. The day comes in as text ("2024-07-01"): a
// counterexample must print it, and the row's day, as a date the engine
// accepts. Track lets a call through at the limit (cnt <= limit instead
// of cnt < limit): a user at 100 calls gets a 101st; Refund reads the
// count but never compares the refund with it: a refund above the count
// takes it below zero.
package pg_date_key_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

// DailyLimit is the number of calls a user may make per day.
const DailyLimit = 100

// ErrLimited is returned when the user reached the daily limit.
var ErrLimited = errors.New("daily limit reached")

// Limiter counts calls.
type Limiter struct{ DB *sql.DB }

// Track counts one call of email on day, refusing it at the limit.
func (l *Limiter) Track(ctx context.Context, email, day string) error {
	res, err := l.DB.ExecContext(ctx, `INSERT INTO daily_usage (user_email, day, cnt) VALUES ($1, $2, 1)
		ON CONFLICT (user_email, day) DO UPDATE SET cnt = daily_usage.cnt + 1 WHERE daily_usage.cnt <= $3`,
		email, day, DailyLimit)
	if err != nil {
		return fmt.Errorf("track: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrLimited
	}
	return nil
}

// Refund gives back n calls of email on day, as far as they go.
func (l *Limiter) Refund(ctx context.Context, email, day string, n int64) error {
	if n <= 0 {
		return errors.New("bad refund")
	}
	var cnt int64
	if err := l.DB.QueryRowContext(ctx, `SELECT cnt FROM daily_usage WHERE user_email = $1 AND day = $2`, email, day).Scan(&cnt); err != nil {
		return fmt.Errorf("refund: %w", err)
	}
	_, err := l.DB.ExecContext(ctx, `UPDATE daily_usage SET cnt = cnt - $3 WHERE user_email = $1 AND day = $2 `, email, day, n)
	return err
}
