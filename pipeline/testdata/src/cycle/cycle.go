// Package cycle has writers that only call each other: no entry point
// discovery finds a caller for them, so coverage makes them entries.
package cycle

import "database/sql"

func drain(db *sql.DB, n int64) {
	if n <= 0 {
		return
	}
	db.Exec("UPDATE accounts SET balance = balance - 1 WHERE id = ?", n)
	refill(db, n-1)
}

func refill(db *sql.DB, n int64) {
	db.Exec("UPDATE accounts SET balance = balance + 1 WHERE id = ?", n)
	drain(db, n)
}
