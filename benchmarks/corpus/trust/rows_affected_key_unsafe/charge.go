// Package rows_affected_key_unsafe charges an amount and a fee as two ledger
// statements; the first only checks the amount.
package rows_affected_key_unsafe

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

// Store is the account repository.
type Store struct{ db *sql.DB }

// Charge takes amt and then fee from account id when the balance covers
// both.
func (s *Store) Charge(ctx context.Context, id, amt, fee int64) error {
	if amt < 0 || fee < 0 {
		return errors.New("accounts: negative charge")
	}
	res, err := s.db.ExecContext(ctx, debitIfCovered, amt, id, amt) // BUG: the fee is not covered
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
