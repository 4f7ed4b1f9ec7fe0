// Package trigger_unrelated_safe debits an account after checking its
// balance; the schema's trigger only stamps updated_at (see schema.sql).
package trigger_unrelated_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficientFunds = errors.New("accounts: insufficient funds")

const debitIfCovered = "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1"

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id when the balance covers it.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	res, err := s.db.ExecContext(ctx, debitIfCovered, amt, id)
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
