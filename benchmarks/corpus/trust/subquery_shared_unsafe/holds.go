// Package holds moves a hold to another wallet (PostgreSQL, pgx): the
// UPDATE takes one hold's amount but guards with another's.
package holds

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrFunds is returned when the wallet does not cover the hold.
var ErrFunds = errors.New("insufficient funds")

// Wallets places holds.
type Wallets struct{ Pool *pgxpool.Pool }

// Replace takes hold next's amount from wallet in place of hold prev's.
//
// BUG: the guard compares the balance with prev's amount, not next's: a
// larger next overdraws the wallet.
func (w *Wallets) Replace(ctx context.Context, wallet, prev, next int64) error {
	tag, err := w.Pool.Exec(ctx, `UPDATE wallets SET available = available - (SELECT amount FROM holds WHERE id = $1)
		WHERE id = $2 AND available >= (SELECT amount FROM holds WHERE id = $3)`, next, wallet, prev)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return ErrFunds
	}
	return nil
}
