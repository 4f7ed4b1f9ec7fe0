// Package upsert_after_read_unsafe records spending against a cap, but
// checks the amount alone against the cap, not the running total it read:
// the upsert adds it to an existing total, past the cap.
package upsert_after_read_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// Cap is the most an account may spend.
const Cap = 1000

// ErrCap is returned when an amount would pass the cap.
var ErrCap = errors.New("spend: cap reached")

// Ledger records spending.
type Ledger struct{ db *sql.DB }

// Spend adds amount to account's total.
func (l *Ledger) Spend(ctx context.Context, account, amount int64) error {
	if amount <= 0 || amount > Cap {
		return errors.New("spend: bad amount")
	}
	var total int64
	// Accounts are opened with a zero total (Open); spending on an
	// account that was never opened fails here.
	if err := l.db.QueryRowContext(ctx, `SELECT total FROM spend WHERE account_id = $1`, account).Scan(&total); err != nil {
		return err
	}
	if amount > Cap || total < 0 {
		return ErrCap
	}
	_, err := l.db.ExecContext(ctx, `INSERT INTO spend (account_id, total) VALUES ($1, $2)
		ON CONFLICT (account_id) DO UPDATE SET total = spend.total + EXCLUDED.total`, account, amount)
	return err
}
