// Package autocommit checks and debits with two statements that each
// commit on their own.
package autocommit

import (
	"context"
	"database/sql"
	"errors"
)

// Wallet is an embedded SQLite wallet.
type Wallet struct{ db *sql.DB }

// Spend checks, then debits.
func (w *Wallet) Spend(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	var bal int64
	if err := w.db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient")
	}
	_, err := w.db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}
