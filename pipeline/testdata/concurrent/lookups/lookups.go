// Package lookups debits after a plain read, like relative, with three
// lookups on tables no request writes before it: they commute with the
// other request's statements, which the partial-order reduction uses.
package lookups

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount (plus the fee of the account's plan) from account
// id if the balance covers it.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	var plan, fee, frozen int64
	if err := a.db.QueryRowContext(ctx, "SELECT plan FROM customers WHERE id = $1", id).Scan(&plan); err != nil {
		return err
	}
	if err := a.db.QueryRowContext(ctx, "SELECT fee FROM plans WHERE id = $1", plan).Scan(&fee); err != nil {
		return err
	}
	if err := a.db.QueryRowContext(ctx, "SELECT frozen FROM freezes WHERE account_id = $1", id).Scan(&frozen); err != nil {
		return err
	}
	if frozen != 0 || fee < 0 {
		return errors.New("account frozen")
	}
	var bal int64
	if err := a.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount+fee {
		return errors.New("insufficient funds")
	}
	_, err := a.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount+fee, id)
	return err
}
