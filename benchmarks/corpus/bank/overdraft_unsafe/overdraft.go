// Package overdraft_unsafe implements accounts with a per-account floor
// min_balance (negative for an arranged overdraft).
package overdraft_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount = errors.New("bank: amount must be positive")
	ErrInvalidLimit  = errors.New("bank: overdraft limit cannot be negative")
	ErrOverdrawn     = errors.New("bank: withdrawal exceeds the overdraft limit")
)

const (
	selectAccount = "SELECT balance FROM accounts WHERE id = ?"
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	setFloor      = "UPDATE accounts SET min_balance = ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id without going below its floor.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	var bal int64
	if err := s.db.QueryRowContext(ctx, selectAccount, id).Scan(&bal); err != nil {
		return err
	}
	if bal-amt < 0 {
		return ErrOverdrawn
	}
	_, err := s.db.ExecContext(ctx, debitAccount, amt, id)
	return err
}

// SetOverdraftLimit lets account id go down to -limit.
func (s *Store) SetOverdraftLimit(ctx context.Context, id, limit int64) error {
	if limit < 0 {
		return ErrInvalidLimit
	}
	_, err := s.db.ExecContext(ctx, setFloor, -limit, id)
	return err
}
