// Package absolute_write_unsafe computes new balances in Go and writes them
// back as absolute values.
package absolute_write_unsafe

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
	withdrawalFee = 2
	lockBalance   = "SELECT balance FROM accounts WHERE id = ? FOR UPDATE"
	setBalance    = "UPDATE accounts SET balance = ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt plus the withdrawal fee from account id and returns
// the new balance.
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
	if bal < amt {
		return 0, ErrInsufficientFunds
	}
	newBal := bal - amt - withdrawalFee
	if _, err := tx.ExecContext(ctx, setBalance, newBal, id); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return newBal, nil
}
