// Package pg_version_retry_reread_safe is the wallet of a payments
// service on PostgreSQL with optimistic locking: each balance row carries
// a version.
//
// Optimistic locking with a retry that reads the row again: each attempt
// reads amount and version, checks the amount and debits only if the
// version is unchanged (PostgreSQL re-checks the guard on the newest row
// version after waiting), so a lost race re-checks the new amount.
package pg_version_retry_reread_safe

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
// reading and checking again when the version moved.
func (w *Wallet) Spend(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrBadAmount
	}
	for attempt := 0; attempt < 3; attempt++ {
		var amount, version int64
		if err := w.db.QueryRowContext(ctx, `SELECT amount, version FROM balances WHERE id = $1`, id).Scan(&amount, &version); err != nil {
			return err
		}
		if amount < amt {
			return ErrInsufficient
		}
		res, err := w.db.ExecContext(ctx,
			`UPDATE balances SET amount = amount - $1, version = version + 1 WHERE id = $2 AND version = $3`,
			amt, id, version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
	}
	return ErrConflict
}
