// Package delete_unsafe closes customer accounts.
package delete_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var ErrNonZeroBalance = errors.New("accounts: balance must be zero to close the account")

const (
	closingFee    = 5
	deleteIfEmpty = "DELETE FROM accounts WHERE id = ? AND balance = 0"
	chargeFee     = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Close deletes the empty account id and charges the closing fee to the
// customer's primary account primaryID.
func (s *Store) Close(ctx context.Context, id, primaryID int64) error {
	res, err := s.db.ExecContext(ctx, deleteIfEmpty, id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNonZeroBalance
	}
	if _, err := s.db.ExecContext(ctx, chargeFee, closingFee, primaryID); err != nil {
		return fmt.Errorf("charge closing fee to %d: %w", primaryID, err)
	}
	return nil
}
