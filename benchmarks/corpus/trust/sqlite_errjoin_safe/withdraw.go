// Package sqlite_errjoin_safe validates a withdrawal by collecting errors
// with errors.Join, and charges an overdraft fee for ErrOverLimit only
// where the balance covers it.
package sqlite_errjoin_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrOverLimit reports an amount above the balance.
var ErrOverLimit = errors.New("over limit")

func validate(bal, amt int64) error {
	var errs []error
	if amt <= 0 {
		errs = append(errs, errors.New("amount must be positive"))
	}
	if amt > bal {
		errs = append(errs, ErrOverLimit)
	}
	return errors.Join(errs...)
}

// Withdraw withdraws amt when validation collects no error; an amount
// over the limit costs a fee of 25 where the balance is at least 25.
func Withdraw(ctx context.Context, db *sql.DB, id, amt int64) error {
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	err := validate(bal, amt)
	if errors.Is(err, ErrOverLimit) && bal >= 25 {
		_, ferr := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 25 WHERE id = ?`, id)
		return errors.Join(err, ferr)
	}
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id)
	return err
}
