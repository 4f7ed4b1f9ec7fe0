// Package escape_type_switch_unsafe withdraws an amount decoded by a small
// generic form decoder that stores through a type switch.
package escape_type_switch_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

var (
	// ErrBadAmount is returned for a non-positive amount.
	ErrBadAmount = errors.New("bank: bad amount")
	// ErrUnsupported is returned by decode for a destination it cannot fill.
	ErrUnsupported = errors.New("form: unsupported destination")
)

const debitAccount = "UPDATE accounts SET balance = balance - ? WHERE id = ?"

// Store is the account repository.
type Store struct{ db *sql.DB }

// decode parses raw into the value into points to.
func decode(raw string, into any) error {
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return err
	}
	switch p := into.(type) {
	case *int64:
		*p = n
	case *int:
		*p = int(n)
	default:
		return ErrUnsupported
	}
	return nil
}

// Withdraw decodes the amount and debits it. Bug: no balance check.
func (s *Store) Withdraw(ctx context.Context, id int64, amountField string) error {
	var amt int64
	if err := decode(amountField, &amt); err != nil {
		return err
	}
	if amt <= 0 {
		return ErrBadAmount
	}
	_, err := s.db.ExecContext(ctx, debitAccount, amt, id)
	return err
}
