// Package guarded debits with one guarded UPDATE: the database checks
// the balance on the newest row version.
package guarded

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from account id if the balance covers it (no
// error when it does not: nothing happens).
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := a.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id)
	return err
}
