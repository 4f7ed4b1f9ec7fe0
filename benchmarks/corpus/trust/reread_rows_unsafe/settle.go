// Package reread_rows_unsafe takes the pending charges (of the one
// account being settled, the table holds no other) in one pass over
// SELECT … FROM charges and debits their sum without checking that the
// balance covers it.
package reread_rows_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// Settle debits the account's charges (each 0..1000, at most 100).
func Settle(ctx context.Context, db *sql.DB, accountID int64) error {
	rows, err := db.QueryContext(ctx, `SELECT amount FROM charges`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var sum, n int64
	for rows.Next() {
		var amt int64
		if err := rows.Scan(&amt); err != nil {
			return err
		}
		n++
		if n > 100 || amt < 0 || amt > 1000 {
			return errors.New("bad charges")
		}
		sum += amt
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, sum, accountID)
	return err
}
