// Package insert_if_missing_unsafe credits a wallet, opening it on the
// first credit. A credit may be negative (a chargeback): the balance check
// covers an existing wallet only, so a chargeback on a wallet that does
// not exist yet opens it below zero.
package insert_if_missing_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// ErrOverdraft is returned when a debit would take a wallet below zero.
var ErrOverdraft = errors.New("wallet: overdraft")

// Wallets keeps balances.
type Wallets struct{ DB *sql.DB }

// Credit adds amount (negative for a chargeback) to owner's wallet.
func (w *Wallets) Credit(ctx context.Context, owner, amount int64) error {
	tx, err := w.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var balance int64
	err = tx.QueryRowContext(ctx, `SELECT balance FROM wallets WHERE owner_id = $1 FOR UPDATE`, owner).Scan(&balance)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO wallets (owner_id, balance) VALUES ($1, $2)`, owner, amount); err != nil {
			return err
		}
		return tx.Commit()
	case err != nil:
		return err
	}
	if amount < -balance {
		return ErrOverdraft
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE owner_id = $2`, amount, owner); err != nil {
		return err
	}
	return tx.Commit()
}
