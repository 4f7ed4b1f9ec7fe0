// Package overdraft_safe implements accounts with a per-account floor
// min_balance (negative for an arranged overdraft).
package overdraft_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount = errors.New("bank: amount must be positive")
	ErrInvalidLimit  = errors.New("bank: overdraft limit cannot be negative")
	ErrOverdrawn     = errors.New("bank: withdrawal exceeds the overdraft limit")
	ErrLimitTooLow   = errors.New("bank: account is already below the new limit")
)

const (
	selectAccount = "SELECT balance, min_balance FROM accounts WHERE id = ?"
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	setFloor      = "UPDATE accounts SET min_balance = ? WHERE id = ? AND balance >= ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id without going below its floor.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	var bal, minBal int64
	if err := s.db.QueryRowContext(ctx, selectAccount, id).Scan(&bal, &minBal); err != nil {
		return err
	}
	if bal-amt < minBal {
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
	res, err := s.db.ExecContext(ctx, setFloor, -limit, id, -limit)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrLimitTooLow
	}
	return nil
}
