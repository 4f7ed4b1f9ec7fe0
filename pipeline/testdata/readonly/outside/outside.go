// Package outside reads in a read-only transaction, then debits without
// a guard on the pool, outside it.
package outside

import (
	"context"
	"database/sql"
)

func Debit(ctx context.Context, db *sql.DB, id, amount int64) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	var bal int64
	err = tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&bal)
	tx.Rollback()
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, id)
	return err
}
