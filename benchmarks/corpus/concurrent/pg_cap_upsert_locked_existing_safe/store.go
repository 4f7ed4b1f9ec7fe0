// Package pg_cap_upsert_locked_existing_safe caps a member's daily
// spending. Spend locks the day's row FOR UPDATE, refuses an amount past
// the cap, and adds it with INSERT … ON CONFLICT DO UPDATE; a day that has
// no row yet is refused (days are opened by a nightly job). The upsert
// always updates the row it holds locked: no interleaving passes the cap
// (an amount so large that total+amount wraps around passes the check,
// and PostgreSQL refuses the sum: bigint out of range).
package pg_cap_upsert_locked_existing_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// DailyCap is the most a member may spend in a day.
const DailyCap = 1000

var (
	// ErrCap is returned when an amount would pass the cap.
	ErrCap = errors.New("spend: daily cap reached")
	// ErrNoDay is returned for a day that was not opened.
	ErrNoDay = errors.New("spend: day not opened")
)

// Ledger records daily spending.
type Ledger struct{ DB *sql.DB }

// Spend adds amount to member's total of day.
func (l *Ledger) Spend(ctx context.Context, member, day, amount int64) error {
	if amount <= 0 {
		return errors.New("spend: bad amount")
	}
	tx, err := l.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var total int64
	err = tx.QueryRowContext(ctx,
		`SELECT total FROM daily_spend WHERE member_id = $1 AND day = $2 FOR UPDATE`, member, day).Scan(&total)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoDay
	}
	if err != nil {
		return err
	}
	if total+amount > DailyCap {
		return ErrCap
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO daily_spend (member_id, day, total) VALUES ($1, $2, $3)
		ON CONFLICT (member_id, day) DO UPDATE SET total = daily_spend.total + EXCLUDED.total`, member, day, amount); err != nil {
		return err
	}
	return tx.Commit()
}
