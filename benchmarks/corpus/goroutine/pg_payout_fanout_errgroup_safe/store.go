// Package pg_payout_fanout_errgroup_safe charges a fee to many accounts
// on PostgreSQL in parallel, one errgroup goroutine per account.
//
// Each goroutine's debit is a guarded UPDATE whose RowsAffected is
// checked, so every order of the goroutines keeps the balances
// non-negative; but the goroutines' UPDATEs touch the same table column
// (rows with different keys, which the column-level footprint does not
// tell apart), so their interleavings are not searched.
package pg_payout_fanout_errgroup_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
	"golang.org/x/sync/errgroup"
)

var ErrInsufficientFunds = errors.New("fees: insufficient funds")

// Fees charges account fees.
type Fees struct{ db *sql.DB }

func NewFees(db *sql.DB) *Fees { return &Fees{db: db} }

// ChargeAll charges fee to every account of ids, at most 8 at a time.
func (f *Fees) ChargeAll(ctx context.Context, ids []int64, fee int64) error {
	if fee <= 0 {
		return fmt.Errorf("fees: fee %d must be positive", fee)
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, id := range ids {
		g.Go(func() error {
			res, err := f.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", fee, id)
			if err != nil {
				return fmt.Errorf("fee of account %d: %w", id, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return fmt.Errorf("fee of account %d: %w", id, err)
			} else if n != 1 {
				return ErrInsufficientFunds
			}
			return nil
		})
	}
	return g.Wait()
}
