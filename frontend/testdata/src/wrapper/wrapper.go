// Package wrapper passes SQL text and arguments through a helper.
package wrapper

import "database/sql"

func run(db *sql.DB, query string, args ...any) error {
	_, err := db.Exec(query, args...)
	return err
}

const debit = "UPDATE accounts SET balance = balance - ? WHERE id = ?"

// Charge calls the wrapper with a constant.
func Charge(db *sql.DB, id, fee int64) error {
	return run(db, debit, fee, id)
}
