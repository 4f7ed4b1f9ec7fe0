// Package twotx reads the balance in one SQLite transaction and debits
// in a second one: the check is not in the debit's transaction.
package twotx

import (
	"context"
	"database/sql"
	"errors"
)

// Wallet is an embedded SQLite wallet.
type Wallet struct{ db *sql.DB }

// Spend checks in one transaction and debits in another.
func (w *Wallet) Spend(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	rtx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	var bal int64
	err = rtx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal)
	rtx.Rollback()
	if err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient")
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
