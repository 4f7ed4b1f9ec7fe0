// Package optionsparam sets its transaction's isolation level in the
// caller and passes the options to a helper that begins the transaction:
// the level is not written at the BEGIN.
package optionsparam

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from account id at REPEATABLE READ.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	return a.withdrawTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead}, id, amount)
}

func (a *Accounts) withdrawTx(ctx context.Context, opts *sql.TxOptions, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := a.db.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
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
