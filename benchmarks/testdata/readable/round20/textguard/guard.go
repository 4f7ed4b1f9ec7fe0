// Package textguard credits an account with an amount that arrives as
// form text (SQLite).
package textguard

import (
	"database/sql"

	_ "modernc.org/sqlite"
)

// Credit adds amount when it is positive; SQLite compares the bound TEXT
// with the number 0 as text, which sorts above every number, so "-1"
// passes the guard, and credits + '-1' subtracts.
func Credit(db *sql.DB, id int64, amount string) error {
	_, err := db.Exec(`UPDATE accounts SET credits = credits + ? WHERE id = ? AND ? > 0`, amount, id, amount)
	return err
}
