// Package withdraw_unsafe implements the teller withdrawal endpoint.
package withdraw_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount = errors.New("bank: amount must be between 1 and the withdrawal limit")
	ErrAccountFrozen = errors.New("bank: account is frozen")
)

const (
	maxWithdrawal  = 20000
	selectAccount  = "SELECT frozen FROM accounts WHERE id = ?"
	debitAccount   = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	insertMovement = "INSERT INTO movements (account_id, kind, amount) VALUES (?, 'withdrawal', ?)"
)

// Withdraw takes amount from accountID and records the movement.
func Withdraw(ctx context.Context, db *sql.DB, accountID, amount int64) error {
	if amount <= 0 || amount > maxWithdrawal {
		return ErrInvalidAmount
	}
	var frozen bool
	if err := db.QueryRowContext(ctx, selectAccount, accountID).Scan(&frozen); err != nil {
		return err
	}
	if frozen {
		return ErrAccountFrozen
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, debitAccount, amount, accountID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, insertMovement, accountID, amount); err != nil {
		return err
	}
	return tx.Commit()
}
