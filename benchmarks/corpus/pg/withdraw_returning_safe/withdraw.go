package withdraw_returning_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount     = errors.New("withdraw amount must be positive")
	ErrInsufficientFunds = errors.New("insufficient funds or no such account")
)

// Service handles cash withdrawals (driver: lib/pq).
type Service struct {
	q *Queries
}

func NewService(db *sql.DB) *Service { return &Service{q: New(db)} }

// Withdraw takes amount from accountID and returns the new balance. The
// guard is part of the UPDATE: no row comes back when funds are short.
func (s *Service) Withdraw(ctx context.Context, accountID, amount int64) (int64, error) {
	if amount <= 0 {
		return 0, ErrInvalidAmount
	}
	balance, err := s.q.DebitAccount(ctx, DebitAccountParams{ID: accountID, Amount: amount})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrInsufficientFunds
	}
	if err != nil {
		return 0, err
	}
	return balance, nil
}
