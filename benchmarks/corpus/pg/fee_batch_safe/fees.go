package fee_batch_safe

import (
	"context"
	"errors"
)

var ErrInvalidFee = errors.New("fee must be positive")

// chargeFee is hand-written (not generated): the debit only happens when the
// account can cover the fee.
const chargeFee = `UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1`

// chargeFees runs one prepared statement per account and returns the ids of
// accounts that could not pay.
func (q *Queries) chargeFees(ctx context.Context, accounts []Account, fee int64) ([]int64, error) {
	stmt, err := q.db.PrepareContext(ctx, chargeFee)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	var unpaid []int64
	for _, a := range accounts {
		res, err := stmt.ExecContext(ctx, fee, a.ID)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, err
		} else if n == 0 {
			unpaid = append(unpaid, a.ID)
		}
	}
	return unpaid, nil
}

// ChargeMonthlyFee charges the account-keeping fee to every account of owner
// in one transaction and reports the accounts that could not pay.
func (s *Store) ChargeMonthlyFee(ctx context.Context, owner string, fee int64) ([]int64, error) {
	if fee <= 0 {
		return nil, ErrInvalidFee
	}
	var unpaid []int64
	err := s.execTx(ctx, func(q *Queries) error {
		accounts, err := q.ListAccountsByOwner(ctx, owner)
		if err != nil {
			return err
		}
		unpaid, err = q.chargeFees(ctx, accounts, fee)
		return err
	})
	return unpaid, err
}
