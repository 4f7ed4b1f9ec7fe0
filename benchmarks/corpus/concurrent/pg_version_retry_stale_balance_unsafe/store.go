// Package pg_version_retry_stale_balance_unsafe is the wallet of a
// payments service on PostgreSQL with optimistic locking: each balance
// row carries a version.
//
// Optimistic locking with a retry that re-reads only the version (adv17's
// SpendRetrying): Spend checks the amount once, then retries its guarded
// UPDATE after a version conflict with the new version and the old check.
// Two spends of 10 from 10: A debits to 0; B's UPDATE matches no row, B
// re-reads the version and debits again: -10. The bug needs B's second
// attempt.
package pg_version_retry_stale_balance_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadAmount    = errors.New("wallet: amount must be positive")
	ErrInsufficient = errors.New("wallet: insufficient funds")
	ErrConflict     = errors.New("wallet: too much contention")
)

// Wallet keeps the balances.
type Wallet struct{ db *sql.DB }

func NewWallet(db *sql.DB) *Wallet { return &Wallet{db: db} }

// Spend debits amt from balance id if the amount read covers it,
// retrying the guarded debit when the version moved.
func (w *Wallet) Spend(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrBadAmount
	}
	var amount, version int64
	if err := w.db.QueryRowContext(ctx, `SELECT amount, version FROM balances WHERE id = $1`, id).Scan(&amount, &version); err != nil {
		return err
	}
	if amount < amt {
		return ErrInsufficient
	}
	for attempt := 0; attempt < 3; attempt++ {
		res, err := w.db.ExecContext(ctx,
			`UPDATE balances SET amount = amount - $1, version = version + 1 WHERE id = $2 AND version = $3`,
			amt, id, version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		if err := w.db.QueryRowContext(ctx, `SELECT version FROM balances WHERE id = $1`, id).Scan(&version); err != nil {
			return err
		}
	}
	return ErrConflict
}
