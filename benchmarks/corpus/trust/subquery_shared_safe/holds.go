// Package holds places holds on wallets (PostgreSQL, pgx): the hold row is
// inserted with INSERT … RETURNING id, and the UPDATE that takes the money
// reads the hold's amount back with a scalar subquery, in its SET and in
// its guard.
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

// PlaceHold records a hold of amount on wallet and takes the hold's amount
// from the wallet when it covers it.
func (w *Wallets) PlaceHold(ctx context.Context, wallet, amount int64) (int64, error) {
	if amount <= 0 {
		return 0, errors.New("bad amount")
	}
	tx, err := w.Pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx)
	var holdID int64
	if err := tx.QueryRow(ctx, `INSERT INTO holds (wallet_id, amount) VALUES ($1, $2) RETURNING id`, wallet, amount).Scan(&holdID); err != nil {
		return 0, err
	}
	tag, err := tx.Exec(ctx, `UPDATE wallets SET available = available - (SELECT amount FROM holds WHERE id = $1)
		WHERE id = $2 AND available >= (SELECT amount FROM holds WHERE id = $1)`, holdID, wallet)
	if err != nil {
		return 0, err
	}
	if tag.RowsAffected() != 1 {
		return 0, ErrFunds
	}
	return holdID, tx.Commit(ctx)
}
