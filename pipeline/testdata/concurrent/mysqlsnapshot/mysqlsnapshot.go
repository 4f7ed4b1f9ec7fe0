// Package mysqlsnapshot reads a setting before it locks the owner's row and
// reads the balance: under MySQL's REPEATABLE READ the first plain read
// (of settings) takes the snapshot, so the balance read may be stale.
package mysqlsnapshot

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from user's account if the limit and the balance
// allow it.
func (a *Accounts) Withdraw(ctx context.Context, user, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var limit int64
	if err := tx.QueryRowContext(ctx, "SELECT max_withdrawal FROM settings WHERE id = 1").Scan(&limit); err != nil {
		return err
	}
	if amount > limit {
		return errors.New("over the limit")
	}
	var uid int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM users WHERE id = ? FOR UPDATE", user).Scan(&uid); err != nil {
		return err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", user).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient funds")
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, user); err != nil {
		return err
	}
	return tx.Commit()
}
