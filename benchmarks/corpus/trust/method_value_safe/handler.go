// Package method_value_safe dispatches withdrawals through a method value.
package method_value_safe

import (
	"context"
	"database/sql"
	"errors"
)

// ErrInvalidAmount is returned for a non-positive amount.
var ErrInvalidAmount = errors.New("bank: amount must be positive")

const debitAccount = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"

// Store is the account repository.
type Store struct{ db *sql.DB }

// withdraw takes amt from account id where the balance covers it.
func (s *Store) withdraw(ctx context.Context, id, amt int64) error {
	_, err := s.db.ExecContext(ctx, debitAccount, amt, id, amt)
	return err
}

// Op is one account operation.
type Op func(ctx context.Context, id, amt int64) error

// HandleWithdraw validates the request and runs the store's withdraw
// through an operation value.
func HandleWithdraw(ctx context.Context, s *Store, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	var op Op = s.withdraw
	return op(ctx, id, amt)
}
