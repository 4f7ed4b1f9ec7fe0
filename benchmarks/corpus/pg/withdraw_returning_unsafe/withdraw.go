package withdraw_returning_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount     = errors.New("withdraw amount must be positive")
	ErrInsufficientFunds = errors.New("insufficient funds")
)

// Service handles cash withdrawals (driver: lib/pq).
type Service struct {
	q *Queries
}

func NewService(db *sql.DB) *Service { return &Service{q: New(db)} }

// Withdraw takes amount from accountID and returns the new balance. The
// balance comes back from RETURNING, so no separate read is needed.
func (s *Service) Withdraw(ctx context.Context, accountID, amount int64) (int64, error) {
	if amount <= 0 {
		return 0, ErrInvalidAmount
	}
	balance, err := s.q.AddAccountBalance(ctx, AddAccountBalanceParams{ID: accountID, Amount: -amount})
	if err != nil {
		return 0, err
	}
	if balance < 0 {
		// Put the money back and refuse.
		if _, err := s.q.AddAccountBalance(ctx, AddAccountBalanceParams{ID: accountID, Amount: amount}); err != nil {
			return 0, err
		}
		return 0, ErrInsufficientFunds
	}
	return balance, nil
}
