// Package topup_unchecked_scan_unsafe tops up prepaid wallets, which are
// capped at one million credits.
package topup_unchecked_scan_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount = errors.New("wallet: amount must be positive")
	ErrLimitReached  = errors.New("wallet: top-up would exceed the wallet limit")
)

const (
	maxCredits    = 1000000
	selectCredits = "SELECT credits FROM wallets WHERE id = ?"
	topUpCredits  = "UPDATE wallets SET credits = credits + ? WHERE id = ?"
)

// Store is the wallet repository.
type Store struct{ db *sql.DB }

// TopUp adds amt credits to wallet id unless that would pass the limit.
func (s *Store) TopUp(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	var current int64
	s.db.QueryRowContext(ctx, selectCredits, id).Scan(&current)
	if current+amt > maxCredits {
		return ErrLimitReached
	}
	_, err := s.db.ExecContext(ctx, topUpCredits, amt, id)
	return err
}
