// Package dialect uses Postgres placeholders.
package dialect

import "database/sql"

// Zero resets a balance.
func Zero(db *sql.DB, id int64) error {
	_, err := db.Exec("UPDATE accounts SET balance = 0 WHERE id = $1", id)
	return err
}
