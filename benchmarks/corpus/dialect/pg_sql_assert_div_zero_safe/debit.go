// Package pg_sql_assert_div_zero_safe debits an account on PostgreSQL
// without a Go guard, then asserts in SQL, a common idiom: the SELECT
// divides by zero when the balance went negative, PostgreSQL fails it
// (22012 division_by_zero), the error returns and the deferred Rollback
// undoes the debit (adv7 p71: "internal: counterexample failed
// validation", the model let 1 / 0 succeed).
package pg_sql_assert_div_zero_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
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
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amt, id); err != nil {
		return err
	}
	var ok int64
	if err := tx.QueryRowContext(ctx, `SELECT CASE WHEN balance < 0 THEN 1 / 0 ELSE 1 END FROM accounts WHERE id = $1`, id).Scan(&ok); err != nil {
		return err
	}
	return tx.Commit()
}
