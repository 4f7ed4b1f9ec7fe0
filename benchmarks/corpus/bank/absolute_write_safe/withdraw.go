// Package absolute_write_safe computes new balances in Go and writes them
// back as absolute values.
package absolute_write_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount     = errors.New("bank: amount must be positive")
	ErrInsufficientFunds = errors.New("bank: insufficient funds")
)

const (
	lockBalance = "SELECT balance FROM accounts WHERE id = ? FOR UPDATE"
	setBalance  = "UPDATE accounts SET balance = ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id and returns the new balance.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) (int64, error) {
	if amt <= 0 {
		return 0, ErrInvalidAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var bal int64
	if err := tx.QueryRowContext(ctx, lockBalance, id).Scan(&bal); err != nil {
		return 0, err
	}
	newBal := bal - amt
	if newBal < 0 {
		return 0, ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, setBalance, newBal, id); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return newBal, nil
}
