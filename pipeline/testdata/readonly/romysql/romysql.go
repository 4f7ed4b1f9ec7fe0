// Package romysql is package ro with MySQL placeholders: it debits
// without a guard inside a read-only transaction, which the engine refuses.
package romysql

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
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
