// Package cancel_func_unsafe withdraws with a per-call timeout.
package cancel_func_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ErrInvalidAmount is returned for a non-positive amount.
var ErrInvalidAmount = errors.New("bank: amount must be positive")

const debitAccount = "UPDATE accounts SET balance = balance - ? WHERE id = ?"

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id, giving the statement two seconds.
// Bug: nothing compares the balance with amt.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := s.db.ExecContext(ctx, debitAccount, amt, id)
	return err
}
