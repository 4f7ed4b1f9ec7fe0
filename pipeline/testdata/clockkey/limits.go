// Package clockkey keys rate counters by the current minute, computed
// from time.Now() (pipeline's TestClockKey; an independent tester's
// time_key_unknown).
package clockkey

import (
	"context"
	"database/sql"
	"time"
)

const hit = `INSERT INTO rate_limits (user_id, window_start, hits, max_hits) VALUES ($1, $2, $3, 100)
	ON CONFLICT (user_id, window_start) DO UPDATE SET hits = rate_limits.hits + excluded.hits
	WHERE rate_limits.hits < rate_limits.max_hits`

// HitCost checks only that the minute's counter is not full, not that
// it has room for cost: UNSAFE (hits 99 of 100, cost 5).
func HitCost(ctx context.Context, db *sql.DB, user string, cost int64) error {
	if cost < 1 || cost > 100 {
		return nil
	}
	window := time.Now().Truncate(time.Minute).Unix()
	_, err := db.ExecContext(ctx, hit, user, window, cost)
	return err
}

// HitOne adds one hit to a counter that is not full: SAFE.
func HitOne(ctx context.Context, db *sql.DB, user string) error {
	window := time.Now().Truncate(time.Minute).Unix()
	_, err := db.ExecContext(ctx, hit, user, window, 1)
	return err
}

// overfill breaks the counter of user's window.
func overfill(ctx context.Context, db *sql.DB, user string, window int64) error {
	_, err := db.ExecContext(ctx, `UPDATE rate_limits SET hits = max_hits + 1 WHERE user_id = $1 AND window_start = $2`, user, window)
	return err
}

// Aligned overfills only a window that does not start on a minute,
// which a truncated clock never gives: SAFE (a clock taken as any
// number would make it UNSAFE).
func Aligned(ctx context.Context, db *sql.DB, user string) error {
	window := time.Now().Truncate(time.Minute).Unix()
	if window%60 != 0 {
		return overfill(ctx, db, user, window)
	}
	return nil
}

// Monotonic overfills only if the clock goes back between two reads:
// SAFE.
func Monotonic(ctx context.Context, db *sql.DB, user string) error {
	start := time.Now()
	end := time.Now()
	if end.Before(start) {
		return overfill(ctx, db, user, start.Unix())
	}
	return nil
}

// Units overfills only if the clock's milliseconds and seconds disagree,
// or an hour later is not 3600 seconds later: SAFE.
func Units(ctx context.Context, db *sql.DB, user string) error {
	now := time.Now()
	later := now.Add(time.Hour)
	if now.UnixMilli()/1000 != now.Unix() || later.Unix()-now.Unix() != 3600 || later.Sub(now) != time.Hour {
		return overfill(ctx, db, user, now.Unix())
	}
	return nil
}

// Elapsed overfills the minute's counter when a second read of the
// clock is a minute later than the first, which a slow call may be:
// UNSAFE.
func Elapsed(ctx context.Context, db *sql.DB, user string) error {
	start := time.Now()
	if time.Now().Sub(start) >= time.Minute {
		return overfill(ctx, db, user, start.Truncate(time.Minute).Unix())
	}
	return nil
}

// Sunday overfills on Sundays, a day the model does not compute from
// the clock: UNKNOWN, naming the call.
func Sunday(ctx context.Context, db *sql.DB, user string) error {
	if time.Now().Weekday() == time.Sunday {
		return overfill(ctx, db, user, 0)
	}
	return nil
}
