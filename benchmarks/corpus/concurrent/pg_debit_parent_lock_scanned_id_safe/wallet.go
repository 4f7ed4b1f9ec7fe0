// Package pg_debit_parent_lock_scanned_id_safe is the wallet of a
// marketplace on PostgreSQL: every change to a customer's money first locks
// the customer's row, then works with the id it read back from that row.
//
// Two debits of one customer serialise on the customer row (FOR UPDATE):
// the second reads the wallet after the first committed. The id used for
// the wallet is the one scanned from the locked row, which the WHERE pins
// to the argument (an independent tester's c19: the model once let the
// scanned id differ, and two customers seemed to share a wallet).
package pg_debit_parent_lock_scanned_id_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrInsufficient means the wallet does not cover the debit.
var ErrInsufficient = errors.New("wallet: insufficient funds")

// Wallets debits customers' wallets.
type Wallets struct{ db *sql.DB }

func NewWallets(db *sql.DB) *Wallets { return &Wallets{db: db} }

// Debit takes cents from the wallet of customer customerID.
func (w *Wallets) Debit(ctx context.Context, customerID, cents int64) error {
	if cents <= 0 {
		return errors.New("wallet: cents must be positive")
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var locked int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM customers WHERE id = $1 FOR UPDATE", customerID).Scan(&locked); err != nil {
		return err
	}
	var have int64
	if err := tx.QueryRowContext(ctx, "SELECT cents FROM wallets WHERE customer_id = $1", locked).Scan(&have); err != nil {
		return err
	}
	if have < cents {
		return ErrInsufficient
	}
	if _, err := tx.ExecContext(ctx, "UPDATE wallets SET cents = cents - $1 WHERE customer_id = $2", cents, locked); err != nil {
		return err
	}
	return tx.Commit()
}
