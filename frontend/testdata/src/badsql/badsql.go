// Package badsql has SQL that does not parse.
package badsql

import "database/sql"

// Broken misspells UPDATE's SET.
func Broken(db *sql.DB, id int64) error {
	_, err := db.Exec("UPDATE accounts SETT balance = 0 WHERE id = ?", id)
	return err
}
