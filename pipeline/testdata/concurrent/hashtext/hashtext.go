// Package hashtext debits accounts under advisory locks named by text,
// pg_advisory_xact_lock(hashtext($1)). Withdraw and Pay each take a lock
// of their own: two withdrawals exclude each other, a withdrawal and a
// payment on one account do not.
package hashtext

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw pays amount out of account id.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	return a.debit(ctx, "withdrawals", id, amount)
}

// Pay pays a merchant amount from account id.
func (a *Accounts) Pay(ctx context.Context, id, amount int64) error {
	return a.debit(ctx, "payments", id, amount)
}

func (a *Accounts) debit(ctx context.Context, lock string, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext($1))", lock); err != nil {
		return err
	}
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
