// Package limits_safe manages prepaid wallets whose balance is capped by
// regulation at one million credits.
package limits_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount = errors.New("wallet: amount must be positive")
	ErrNotEnough     = errors.New("wallet: not enough credits")
	ErrLimitReached  = errors.New("wallet: top-up would exceed the wallet limit")
)

const (
	maxCredits   = 1000000
	spendCredits = "UPDATE wallets SET credits = credits - ? WHERE id = ? AND credits >= ?"
	topUpCredits = "UPDATE wallets SET credits = credits + ? WHERE id = ? AND credits <= ?"
)

// Store is the wallet repository.
type Store struct{ db *sql.DB }

// Spend takes cost credits from wallet id.
func (s *Store) Spend(ctx context.Context, id, cost int64) error {
	if cost <= 0 {
		return ErrInvalidAmount
	}
	res, err := s.db.ExecContext(ctx, spendCredits, cost, id, cost)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrNotEnough
	}
	return nil
}

// TopUp adds amt credits to wallet id unless that would pass the limit.
func (s *Store) TopUp(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	res, err := s.db.ExecContext(ctx, topUpCredits, amt, id, maxCredits-amt)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrLimitReached
	}
	return nil
}
