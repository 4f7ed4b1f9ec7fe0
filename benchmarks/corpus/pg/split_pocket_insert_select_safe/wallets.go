// Package wallets splits a wallet on PostgreSQL: a new pocket takes all
// of the wallet's balance but a kept part, in one INSERT … SELECT that
// copies the wallet's currency, and the wallet keeps the part. The
// SELECT only picks a wallet holding at least the part, and the wallet
// is changed only when the pocket was made, so no balance goes negative.
package wallets

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrFunds is returned when the wallet holds less than the part to keep.
var ErrFunds = errors.New("wallets: insufficient funds")

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
		SELECT $1, id, currency, balance - $2 FROM wallets WHERE id = $3 AND balance >= $2`,
		pocketID, keep, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrFunds
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = $1 WHERE id = $2`, keep, id); err != nil {
		return err
	}
	return tx.Commit()
}
