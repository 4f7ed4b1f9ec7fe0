package fee_batch_unsafe

import (
	"context"
	"errors"
)

var ErrInvalidFee = errors.New("fee must be positive")

// ChargeMonthlyFee charges the account-keeping fee to every account of owner
// in one transaction. Empty accounts are not charged.
func (s *Store) ChargeMonthlyFee(ctx context.Context, owner string, fee int64) (int, error) {
	if fee <= 0 {
		return 0, ErrInvalidFee
	}
	charged := 0
	err := s.execTx(ctx, func(q *Queries) error {
		accounts, err := q.ListAccountsByOwner(ctx, owner)
		if err != nil {
			return err
		}
		for _, a := range accounts {
			if a.Balance == 0 {
				continue
			}
			if _, err := q.AddAccountBalance(ctx, AddAccountBalanceParams{ID: a.ID, Amount: -fee}); err != nil {
				return err
			}
			charged++
		}
		return nil
	})
	return charged, err
}
