// Package pg_null_coalesce_unsafe spends from gift wallets whose balance
// is NULL until the first top-up.
package pg_null_coalesce_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadAmount    = errors.New("wallet: amount must be positive")
	ErrInsufficient = errors.New("wallet: insufficient balance")
)

// Wallets is the wallet repository.
type Wallets struct{ db *sql.DB }

// Spend takes amt from wallet id. A wallet never topped up (NULL balance)
// is let through: the check looks only at funded wallets.
func (w *Wallets) Spend(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrBadAmount
	}
	var bal sql.NullInt64
	if err := w.db.QueryRowContext(ctx, "SELECT balance FROM wallets WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal.Valid && bal.Int64 < amt { // BUG: a NULL balance is 0 after COALESCE
		return ErrInsufficient
	}
	_, err := w.db.ExecContext(ctx, "UPDATE wallets SET balance = COALESCE(balance, 0) - $1 WHERE id = $2", amt, id)
	return err
}
