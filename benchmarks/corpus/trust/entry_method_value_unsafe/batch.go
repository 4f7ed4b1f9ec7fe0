// Package wallet charges back card payments in batches (MySQL). Batch
// runs the charge-back through a method value a retry helper wraps.
package wallet

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Service holds the database.
type Service struct{ DB *sql.DB }

// chargeback takes amount from the account.
func (s *Service) chargeback(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return nil
	}
	// BUG: the card network has decided, but the balance may not cover it.
	_, err := s.DB.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id)
	return err
}

// WithRetry retries an operation up to three times.
func WithRetry(f func(context.Context, int64, int64) error) func(context.Context, int64, int64) error {
	return func(ctx context.Context, id, amount int64) error {
		var err error
		for i := 0; i < 3; i++ {
			if err = f(ctx, id, amount); err == nil {
				return nil
			}
		}
		return err
	}
}

// Batch charges back the same amount on several accounts.
func (s *Service) Batch(ctx context.Context, ids []int64, amount int64) error {
	f := WithRetry(s.chargeback)
	for _, id := range ids {
		if err := f(ctx, id, amount); err != nil {
			return err
		}
	}
	return nil
}
