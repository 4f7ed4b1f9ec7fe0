// Package nolock reads the user row without a lock: two debits of one
// user race on the account balance.
package nolock

import (
	"context"
	"database/sql"
	"errors"
)

// Wallets is the wallet store.
type Wallets struct{ db *sql.DB }

// Spend debits amount from the account of user uid.
func (w *Wallets) Spend(ctx context.Context, uid, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var name string
	if err := tx.QueryRowContext(ctx, "SELECT name FROM users WHERE id = $1", uid).Scan(&name); err != nil {
		return err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE user_id = $1", uid).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient funds")
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE user_id = $2", amount, uid); err != nil {
		return err
	}
	return tx.Commit()
}
