// Package reread_fee_safe settles an account's pending charges in two
// passes over the same SELECT: the first checks that the balance covers
// the charges and their fees of 1 each, the second debits each charge
// plus its fee.
package reread_fee_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var ErrFunds = errors.New("insufficient funds")

// Settle debits the account's charges (each 0..1000, at most 100), a fee
// of 1 on each.
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
		total += amt + 1
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
		sum += amt + 1
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, sum, accountID)
	return err
}
