// Package ro debits without a guard inside a read-only transaction: the
// engine refuses the UPDATE.
package ro

import (
	"context"
	"database/sql"
)

func Debit(ctx context.Context, db *sql.DB, id, amount int64) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
