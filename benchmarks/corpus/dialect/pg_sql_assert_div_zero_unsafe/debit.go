// Package pg_sql_assert_div_zero_unsafe is pg_sql_assert_div_zero_safe
// with an assertion that lets the balance go down to -100: the divisor is
// zero only below that (a divisor computed per row, so PostgreSQL divides
// at run time, not when planning), so a debit to -1 commits.
package pg_sql_assert_div_zero_unsafe

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
	if err := tx.QueryRowContext(ctx, `SELECT 1 / CASE WHEN balance < -100 THEN 0 ELSE 1 END FROM accounts WHERE id = $1`, id).Scan(&ok); err != nil {
		return err
	}
	return tx.Commit()
}
