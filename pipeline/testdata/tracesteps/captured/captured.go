// Package captured debits a wallet inside a closure passed to a
// transaction helper: Go moves the captured parameter amount to a heap
// cell, which the trace's first step must show as the argument.
package captured

import (
	"context"
	"database/sql"
)

func inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Charge debits amount+1 after checking only amount.
func Charge(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return nil
	}
	return inTx(ctx, db, func(tx *sql.Tx) error {
		var bal int64
		if err := tx.QueryRowContext(ctx, `SELECT balance FROM wallets WHERE id = $1 FOR UPDATE`, id).Scan(&bal); err != nil {
			return err
		}
		if bal < amount {
			return nil
		}
		_, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amount+1, id)
		return err
	})
}
