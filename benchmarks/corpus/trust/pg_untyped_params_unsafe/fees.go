// Package fees withdraws an amount plus a fee on PostgreSQL through pgx.
// The cast types the sum ($1::bigint + $2), so the statement prepares and
// runs; the guard in the WHERE covers the amount only, so the fee takes
// the balance below zero.
package fees

import (
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Withdraw debits amount plus fee if the balance covers the amount.
func Withdraw(db *sql.DB, id, amount, fee int64) error {
	_, err := db.Exec(`UPDATE accounts SET balance = balance - ($1::bigint + $2) WHERE id = $3 AND balance >= $4`, amount, fee, id, amount)
	return err
}
