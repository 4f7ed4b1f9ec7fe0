// Package sqlite_uint64_safe spends loyalty points kept in a uint64 (SQLite).
// At most 1000 points per call.
package sqlite_uint64_safe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// Spend takes amt points from wallet id. pts - amt wraps around below
// zero; database/sql refuses a uint64 argument of 2^63 or more ("uint64
// values with high bit set are not supported"), and a negative points
// value fails the Scan into a uint64.
func Spend(db *sql.DB, id int64, amt uint64) error {
	if amt > 1000 {
		return errors.New("spend: at most 1000 per call")
	}
	var pts uint64
	if err := db.QueryRow("SELECT points FROM wallets WHERE id = ?", id).Scan(&pts); err != nil {
		return err
	}
	_, err := db.Exec("UPDATE wallets SET points = ? WHERE id = ?", pts-amt, id)
	return err
}
