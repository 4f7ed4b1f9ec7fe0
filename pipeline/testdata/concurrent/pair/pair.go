// Package pair has two entries. Fee takes a fixed fee of 50 when a
// plain read saw at least 100: two Fee requests cannot overdraw. Charge
// writes back the balance it computed from a plain read, which is never
// negative. But Charge can leave 0 between Fee's read and Fee's debit.
package pair

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Fee takes the monthly fee of a rich account.
func (a *Accounts) Fee(ctx context.Context, id int64) error {
	var bal int64
	if err := a.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal < 100 {
		return nil
	}
	_, err := a.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 50 WHERE id = $1", id)
	return err
}

// Charge debits price from account id when the balance covers it.
func (a *Accounts) Charge(ctx context.Context, id, price int64) error {
	if price <= 0 {
		return errors.New("price must be positive")
	}
	var bal int64
	if err := a.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal < price {
		return errors.New("insufficient funds")
	}
	_, err := a.db.ExecContext(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", bal-price, id)
	return err
}
