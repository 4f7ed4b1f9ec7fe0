// Package escape_ptr_slice_safe charges an amount and a fee read from a
// form, parsed through a table of destination pointers.
package escape_ptr_slice_safe

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

// ErrBadCharge is returned for a negative amount or fee.
var ErrBadCharge = errors.New("bank: bad charge")

const chargeAccount = "UPDATE accounts SET balance = balance - ? - ? WHERE id = ? AND balance >= ? + ?"

// Store is the account repository.
type Store struct{ db *sql.DB }

// Charge parses the "amount" and "fee" fields and debits both where the
// balance covers amount + fee.
func (s *Store) Charge(ctx context.Context, id int64, amountField, feeField string) error {
	var amount, fee int64
	raw := []string{amountField, feeField}
	for i, dst := range []*int64{&amount, &fee} {
		n, err := strconv.ParseInt(raw[i], 10, 64)
		if err != nil {
			return err
		}
		*dst = n
	}
	if amount < 0 || fee < 0 {
		return ErrBadCharge
	}
	_, err := s.db.ExecContext(ctx, chargeAccount, amount, fee, id, amount, fee)
	return err
}
