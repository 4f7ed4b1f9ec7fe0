// Package badsql compiles but embeds an UPDATE statement that is not SQL
// (the SET clause has no value). The entry is UNKNOWN, with the file, line
// and column of the error.
package badsql

import "database/sql"

// Withdraw debits amt from account id.
func Withdraw(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = WHERE id = ?", id)
	return err
}
