// Package mysql_sql_assert_div_zero_safe is pg_sql_assert_div_zero_safe
// on MySQL: there 1 / 0 is NULL, not an error, but the Scan of the NULL
// into an int64 fails ("converting NULL to int64 is unsupported"), the
// error returns and the deferred Rollback undoes the debit.
package mysql_sql_assert_div_zero_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Withdraw takes amt from account id.
func Withdraw(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return errors.New("bad amount")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id); err != nil {
		return err
	}
	var ok int64
	if err := tx.QueryRowContext(ctx, `SELECT CASE WHEN balance < 0 THEN 1 / 0 ELSE 1 END FROM accounts WHERE id = ?`, id).Scan(&ok); err != nil {
		return err
	}
	return tx.Commit()
}
