// Package fees_unsafe charges service fees to a batch of accounts.
package fees_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var ErrInvalidFee = errors.New("fees: fee must be positive")

const (
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	chargeFee     = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// ChargeFees charges fee to every account in ids. It first verifies that
// all accounts can pay, so that the batch is all-or-nothing.
func (s *Store) ChargeFees(ctx context.Context, ids []int64, fee int64) error {
	if fee <= 0 {
		return ErrInvalidFee
	}
	for _, id := range ids {
		var bal int64
		if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
			return fmt.Errorf("account %d: %w", id, err)
		}
		if bal < fee {
			return fmt.Errorf("account %d cannot pay the fee", id)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, chargeFee, fee, id); err != nil {
			return err
		}
	}
	return tx.Commit()
}
