// Package reread_rows_safe: the pending charges are checked against the
// balance in a first pass (bounded: at most 100 charges of at most 1000), then taken one
// by one in a second pass over the same SELECT.
package reread_rows_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var ErrFunds = errors.New("insufficient funds")

func Settle(ctx context.Context, db *sql.DB, accountID int64) error {
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, accountID).Scan(&bal); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT amount FROM charges WHERE account_id = ?`, accountID)
	if err != nil {
		return err
	}
	var total, n int64
	for rows.Next() {
		var amt int64
		if err := rows.Scan(&amt); err != nil {
			rows.Close()
			return err
		}
		n++
		if n > 100 || amt < 0 || amt > 1000 {
			rows.Close()
			return errors.New("bad charges")
		}
		total += amt
	}
	rows.Close()
	if total > bal {
		return ErrFunds
	}
	rows, err = db.QueryContext(ctx, `SELECT amount FROM charges WHERE account_id = ?`, accountID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var sum int64
	for rows.Next() {
		var amt int64
		if err := rows.Scan(&amt); err != nil {
			return err
		}
		sum += amt
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, sum, accountID)
	return err
}
