// Package fees_safe charges service fees to a batch of accounts.
package fees_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var ErrInvalidFee = errors.New("fees: fee must be positive")

const (
	lockBalance = "SELECT balance FROM accounts WHERE id = ? FOR UPDATE"
	chargeFee   = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// ChargeFees charges fee to every account in ids that can pay it, in one
// transaction, and returns how many accounts were charged.
func (s *Store) ChargeFees(ctx context.Context, ids []int64, fee int64) (int, error) {
	if fee <= 0 {
		return 0, ErrInvalidFee
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	charged := 0
	for _, id := range ids {
		var bal int64
		if err := tx.QueryRowContext(ctx, lockBalance, id).Scan(&bal); err != nil {
			return 0, fmt.Errorf("account %d: %w", id, err)
		}
		if bal < fee {
			continue
		}
		if _, err := tx.ExecContext(ctx, chargeFee, fee, id); err != nil {
			return 0, err
		}
		charged++
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return charged, nil
}
