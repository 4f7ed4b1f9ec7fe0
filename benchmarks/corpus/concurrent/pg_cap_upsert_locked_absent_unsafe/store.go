// Package pg_cap_upsert_locked_absent_unsafe caps a member's daily
// spending. Spend locks the day's row FOR UPDATE, refuses an amount past
// the cap, and adds it with INSERT … ON CONFLICT DO UPDATE; a day that has
// no row yet counts as zero. FOR UPDATE on a missing row locks nothing:
// two requests both see no row, both pass the check, and the second
// upsert adds its amount to the first one's, past the cap.
package pg_cap_upsert_locked_absent_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// DailyCap is the most a member may spend in a day.
const DailyCap = 1000

// ErrCap is returned when an amount would pass the cap.
var ErrCap = errors.New("spend: daily cap reached")

// Ledger records daily spending.
type Ledger struct{ DB *sql.DB }

// Spend adds amount to member's total of day.
func (l *Ledger) Spend(ctx context.Context, member, day, amount int64) error {
	if amount <= 0 || amount > DailyCap {
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
		total = 0
	} else if err != nil {
		return err
	}
	if total > DailyCap-amount {
		return ErrCap
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO daily_spend (member_id, day, total) VALUES ($1, $2, $3)
		ON CONFLICT (member_id, day) DO UPDATE SET total = daily_spend.total + EXCLUDED.total`, member, day, amount); err != nil {
		return err
	}
	return tx.Commit()
}
