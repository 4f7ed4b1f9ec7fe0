// Package escape_sscan_unsafe withdraws an amount typed into a form.
package escape_sscan_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrBadAmount is returned when the form's amount is not a positive number.
var ErrBadAmount = errors.New("bank: bad amount")

const debitAccount = "UPDATE accounts SET balance = balance - ? WHERE id = ?"

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw parses the amount field with fmt.Sscan and debits it. Bug: the
// balance is never compared with the parsed amount.
func (s *Store) Withdraw(ctx context.Context, id int64, amountField string) error {
	var amt int64
	if _, err := fmt.Sscan(amountField, &amt); err != nil {
		return fmt.Errorf("parse amount %q: %w", amountField, err)
	}
	if amt <= 0 {
		return ErrBadAmount
	}
	_, err := s.db.ExecContext(ctx, debitAccount, amt, id)
	return err
}
