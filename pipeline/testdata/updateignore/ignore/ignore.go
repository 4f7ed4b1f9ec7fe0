// Package ignore sets a wallet's points with UPDATE IGNORE from an optional value
// it checks only when it is given: a NULL for the NOT NULL column is
// stored as the implicit default 0 (UPDATE IGNORE), below the minimum.
package ignore

import (
	"database/sql"
	"errors"
)

// SetPoints sets wallet id's points to p, which must be at least 1.
func SetPoints(db *sql.DB, id int64, p sql.NullInt64) error {
	if p.Valid && p.Int64 < 1 {
		return errors.New("points below the minimum")
	}
	_, err := db.Exec("UPDATE IGNORE wallets SET points = ? WHERE id = ?", p, id)
	return err
}
