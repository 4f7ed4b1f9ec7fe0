// Package plain sets a wallet's points with UPDATE from an optional value
// it checks only when it is given: a NULL for the NOT NULL column fails
// the statement in strict mode.
package plain

import (
	"database/sql"
	"errors"
)

// SetPoints sets wallet id's points to p, which must be at least 1.
func SetPoints(db *sql.DB, id int64, p sql.NullInt64) error {
	if p.Valid && p.Int64 < 1 {
		return errors.New("points below the minimum")
	}
	_, err := db.Exec("UPDATE wallets SET points = ? WHERE id = ?", p, id)
	return err
}
