// Package wallet debits the wallet whose id the caller passes as text (a
// path parameter) from a BIGINT key: PostgreSQL reads the text as the
// integer, so a counterexample's id must be an integer's text (adv9 m8,
// where it was "STR1 ", which PostgreSQL refuses with 22P02).
package wallet

import (
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Debit takes cents from wallet id without checking the balance.
func Debit(db *sql.DB, id string, cents int64) error {
	if cents <= 0 {
		return nil
	}
	_, err := db.Exec(`UPDATE wallets SET balance = balance - $1 WHERE id = $2`, cents, id)
	return err
}
