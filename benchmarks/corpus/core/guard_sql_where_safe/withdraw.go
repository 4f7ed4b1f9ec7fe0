// Package guard_sql_where_safe debits accounts with the funds check pushed
// into the UPDATE itself.
package guard_sql_where_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount     = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds or unknown account")
)

const debitIfCovered = "UPDATE accounts SET balance = balance - ? " +
	"WHERE id = ? AND balance >= ?"

// Withdraw debits amt from account id in a single conditional statement;
// no row is touched when the balance does not cover amt.
func Withdraw(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	res, err := db.ExecContext(ctx, debitIfCovered, amt, id, amt)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrInsufficientFunds
	}
	return nil
}
