// Package user_key_safe redeems loyalty credits from a user's wallet.
package user_key_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidCost      = errors.New("wallet: cost must be positive")
	ErrNotEnoughCredits = errors.New("wallet: not enough credits")
)

const (
	selectCredits = "SELECT credits FROM wallets WHERE user_id = ?"
	debitCredits  = "UPDATE wallets SET credits = credits - ? WHERE user_id = ?"
)

// Store is the wallet repository.
type Store struct{ db *sql.DB }

// Redeem takes cost credits from the wallet of userID.
func (s *Store) Redeem(ctx context.Context, userID, cost int64) error {
	if cost <= 0 {
		return ErrInvalidCost
	}
	var credits int64
	if err := s.db.QueryRowContext(ctx, selectCredits, userID).Scan(&credits); err != nil {
		return err
	}
	if credits < cost {
		return ErrNotEnoughCredits
	}
	_, err := s.db.ExecContext(ctx, debitCredits, cost, userID)
	return err
}
