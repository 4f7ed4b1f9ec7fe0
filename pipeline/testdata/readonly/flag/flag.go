// Package flag lets the caller choose whether the transaction is
// read-only: when it is not, the unguarded debit commits.
package flag

import (
	"context"
	"database/sql"
)

func Debit(ctx context.Context, db *sql.DB, id, amount int64, audit bool) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: audit})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
