// Package safe checks and debits in one SQLite transaction (an
// independent tester's p46): SQLite commits only serializable schedules.
package safe

import (
	"context"
	"database/sql"
	"errors"
)

// Wallet is an embedded SQLite wallet.
type Wallet struct{ db *sql.DB }

// Spend checks and debits in one transaction.
func (w *Wallet) Spend(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
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

// SpendLogged debits like Spend, logs the debit, and commits even when
// the log's INSERT fails (SQLite undoes the failed statement alone and
// the transaction goes on).
func (w *Wallet) SpendLogged(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
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
	_, _ = tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	_, _ = tx.ExecContext(ctx, `INSERT INTO ledger (account_id, amount) VALUES (?, ?)`, id, -amount)
	return tx.Commit()
}

// Deposit credits the account on its own (one statement: a transaction
// of its own).
func (w *Wallet) Deposit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	_, err := w.db.ExecContext(ctx, `UPDATE accounts SET balance = balance + ? WHERE id = ?`, amount, id)
	return err
}
