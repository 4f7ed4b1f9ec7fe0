// Package mysql has handlers of one accounts table on MySQL, whose
// single-table UPDATE evaluates its SET assignments left to right on the
// row as updated so far: Bump's "last = balance" reads the new balance.
package mysql

import (
	"context"
	"database/sql"
	"errors"
)

// Store is the account store.
type Store struct{ db *sql.DB }

// Bump adds to the balance and records the balance it leaves in last
// (MySQL: the new balance): two bumps commute.
func (s *Store) Bump(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + ?, last = balance WHERE id = ?", amount, id)
	return err
}

// Forget lowers last by one: after a bump last is one below the new
// balance, before one the bump sets it to the new balance. (It cleared
// last, a blind write as Bump's: no order-dependence finding since the
// last writer of a cell no path reads wins.)
func (s *Store) Forget(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET last = last - 1 WHERE id = ?", id)
	return err
}
