package set_balance_safe

import (
	"context"
	"errors"
)

var ErrNegativeBalance = errors.New("balance must not be negative")

// CorrectBalance sets the balance of accountID after a manual reconciliation
// and records the adjustment, atomically.
func (s *Store) CorrectBalance(ctx context.Context, accountID, balance int64, note string) (Account, error) {
	if balance < 0 {
		return Account{}, ErrNegativeBalance
	}
	var acc Account
	err := s.execTx(ctx, func(q *Queries) error {
		var err error
		acc, err = q.UpdateAccount(ctx, UpdateAccountParams{ID: accountID, Balance: balance})
		if err != nil {
			return err
		}
		return q.CreateAdjustment(ctx, CreateAdjustmentParams{
			AccountID:  accountID,
			NewBalance: balance,
			Note:       note,
		})
	})
	return acc, err
}
