// Package badsql compiles but embeds an UPDATE statement that is not SQL
// (the SET clause has no value). dbverify must exit 2 and name the file and
// line of the call.
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
