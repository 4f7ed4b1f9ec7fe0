// Package param begins the read-only transaction in a helper given the
// access mode as a parameter, a constant at its only call site.
package param

import (
	"context"
	"database/sql"
)

func begin(ctx context.Context, db *sql.DB, readOnly bool) (*sql.Tx, error) {
	return db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable, ReadOnly: readOnly})
}

func Debit(ctx context.Context, db *sql.DB, id, amount int64) error {
	tx, err := begin(ctx, db, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
