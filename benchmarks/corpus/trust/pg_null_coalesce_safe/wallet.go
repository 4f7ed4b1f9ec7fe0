// Package pg_null_coalesce_safe spends from gift wallets whose balance is
// NULL until the first top-up.
package pg_null_coalesce_safe

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

// Spend takes amt from wallet id; a wallet never topped up (NULL balance)
// holds nothing.
func (w *Wallets) Spend(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrBadAmount
	}
	var bal sql.NullInt64
	if err := w.db.QueryRowContext(ctx, "SELECT balance FROM wallets WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	var available int64
	if bal.Valid {
		available = bal.Int64
	}
	if available < amt {
		return ErrInsufficient
	}
	_, err := w.db.ExecContext(ctx, "UPDATE wallets SET balance = COALESCE(balance, 0) - $1 WHERE id = $2", amt, id)
	return err
}
