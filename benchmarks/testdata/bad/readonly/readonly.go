// Package readonly only reads accounts: a constraint on accounts has no
// entry point to verify, which must be a usage error, not "0 results".
package readonly

import "database/sql"

// Balance returns the balance of account id.
func Balance(db *sql.DB, id int64) (int64, error) {
	var bal int64
	err := db.QueryRow("SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal)
	return bal, err
}
