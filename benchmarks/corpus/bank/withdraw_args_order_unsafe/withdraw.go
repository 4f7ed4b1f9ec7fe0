// Package withdraw_args_order_unsafe implements the card withdrawal endpoint.
package withdraw_args_order_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount     = errors.New("bank: amount must be positive")
	ErrInsufficientFunds = errors.New("bank: insufficient funds")
)

const debitIfCovered = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"

// Withdraw takes amount from accountID if the balance covers it.
func Withdraw(ctx context.Context, db *sql.DB, accountID, amount int64) error {
	if amount <= 0 {
		return ErrInvalidAmount
	}
	res, err := db.ExecContext(ctx, debitIfCovered, amount, amount, accountID)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrInsufficientFunds
	}
	return nil
}
