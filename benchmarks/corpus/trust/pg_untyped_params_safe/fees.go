// Package fees withdraws an amount plus a fee on PostgreSQL through pgx.
// The guard in the WHERE covers the amount only, but the sum of the two
// bare parameters ($1 + $2, each written once) cannot be typed by
// PostgreSQL when pgx prepares the statement (42725 "operator is not
// unique: unknown + unknown"): the UPDATE fails at every call and no
// balance ever changes.
package fees

import (
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Withdraw debits amount plus fee if the balance covers the amount.
func Withdraw(db *sql.DB, id, amount, fee int64) error {
	_, err := db.Exec(`UPDATE accounts SET balance = balance - ($1 + $2) WHERE id = $3 AND balance >= $4`, amount, fee, id, amount)
	return err
}
