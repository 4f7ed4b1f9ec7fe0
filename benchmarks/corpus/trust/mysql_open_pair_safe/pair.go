// Package mysql_open_pair_safe opens a funded account and an empty one
// with one multi-row INSERT, then books the opening fee.
package mysql_open_pair_safe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Bank opens accounts.
type Bank struct{ db *sql.DB }

// OpenPair opens account a with the deposit and account b empty, then
// takes the deposit back from a as the fee. The two rows of the INSERT
// have different ids (the engine refuses the statement otherwise), so the
// UPDATE of a never reaches b's row.
func (k *Bank) OpenPair(ctx context.Context, a, b, deposit int64) error {
	if deposit < 0 {
		return nil
	}
	tx, err := k.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO accounts (id, balance) VALUES (?, ?), (?, 0)", a, deposit, b); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", deposit, a); err != nil {
		return err
	}
	return tx.Commit()
}
