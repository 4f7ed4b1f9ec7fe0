// Package absolute writes the balance it computed from a plain read: a
// concurrent debit may be lost, but the balance never goes negative.
package absolute

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
	var bal int64
	if err := a.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient funds")
	}
	_, err := a.db.ExecContext(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", bal-amount, id)
	return err
}
