// Package methval runs writers through method values that a retry helper
// wraps (f := WithRetry(s.chargeback); f(ctx, id, amt)): Batch and
// SafeBatch run the writers, Handler only returns the wrapped value.
package methval

import (
	"context"
	"database/sql"
)

type Service struct{ DB *sql.DB }

// chargeback takes amt without checking funds.
func (s *Service) chargeback(ctx context.Context, id, amt int64) error {
	_, err := s.DB.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}

// withdraw takes amt only from a balance that covers it.
func (s *Service) withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := s.DB.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", amt, id, amt)
	return err
}

// WithRetry retries f up to three times.
func WithRetry(f func(context.Context, int64, int64) error) func(context.Context, int64, int64) error {
	return func(ctx context.Context, id, amt int64) error {
		var err error
		for i := 0; i < 3; i++ {
			if err = f(ctx, id, amt); err == nil {
				return err
			}
		}
		return err
	}
}

// Batch charges back amt on each wallet through the wrapped method value.
func (s *Service) Batch(ctx context.Context, ids []int64, amt int64) error {
	f := WithRetry(s.chargeback)
	for _, id := range ids {
		if err := f(ctx, id, amt); err != nil {
			return err
		}
	}
	return nil
}

// SafeBatch withdraws through the wrapped method value.
func (s *Service) SafeBatch(ctx context.Context, id, amt int64) error {
	f := WithRetry(s.withdraw)
	return f(ctx, id, amt)
}

// Handler returns the wrapped writer without running it.
func Handler(s *Service) func(context.Context, int64, int64) error {
	return WithRetry(s.chargeback)
}
