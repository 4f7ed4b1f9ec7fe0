// Package rows_affected_key_safe charges an amount and a fee as two ledger
// statements; the first reserves room for both.
package rows_affected_key_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficientFunds = errors.New("accounts: insufficient funds")

const (
	debitIfCovered = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"
	debitFee       = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// The limits of one charge: amt+fee cannot wrap around.
const (
	maxCharge = 1_000_000_000
	maxFee    = 1_000_000
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Charge takes amt and then fee from account id when the balance covers
// both.
func (s *Store) Charge(ctx context.Context, id, amt, fee int64) error {
	if amt < 0 || fee < 0 || fee > maxFee || amt > maxCharge {
		return errors.New("accounts: charge out of range")
	}
	res, err := s.db.ExecContext(ctx, debitIfCovered, amt, id, amt+fee)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrInsufficientFunds
	}
	_, err = s.db.ExecContext(ctx, debitFee, fee, id)
	return err
}
