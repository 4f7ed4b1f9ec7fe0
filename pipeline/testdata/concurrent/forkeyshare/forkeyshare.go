// Package forkeyshare takes FOR KEY SHARE of the account row before
// checking it: that lock does not block an UPDATE of a non-key column,
// so a concurrent debit does not wait for it.
package forkeyshare

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from account id if the balance covers it.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR KEY SHARE", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient funds")
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
