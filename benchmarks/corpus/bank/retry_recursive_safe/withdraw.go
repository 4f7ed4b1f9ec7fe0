// Package retry_recursive_safe debits accounts and retries transient
// database errors.
package retry_recursive_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var (
	ErrInvalidAmount     = errors.New("bank: amount must be positive")
	ErrInsufficientFunds = errors.New("bank: insufficient funds")
)

const (
	maxAttempts    = 3
	debitIfCovered = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id, retrying up to maxAttempts times.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	return s.withdraw(ctx, id, amt, maxAttempts)
}

func (s *Store) withdraw(ctx context.Context, id, amt int64, attempts int) error {
	res, err := s.db.ExecContext(ctx, debitIfCovered, amt, id, amt)
	if err != nil {
		if attempts > 1 {
			return s.withdraw(ctx, id, amt, attempts-1)
		}
		return fmt.Errorf("withdraw gave up after %d attempts: %w", maxAttempts, err)
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
