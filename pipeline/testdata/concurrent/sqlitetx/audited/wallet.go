// Package audited logs the attempt on the pool, then checks and debits
// in one SQLite transaction.
package audited

import (
	"context"
	"database/sql"
	"errors"
)

// Wallet is an embedded SQLite wallet.
type Wallet struct{ db *sql.DB }

// Spend logs the attempt, then checks and debits in one transaction.
func (w *Wallet) Spend(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	if _, err := w.db.ExecContext(ctx, `INSERT INTO attempts (account_id, amount) VALUES (?, ?)`, id, amount); err != nil {
		return err
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
