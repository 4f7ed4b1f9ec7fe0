// Package uuidkey reserves funds of a user whose balance row is keyed by
// a UUID the handler parses from the request.
package uuidkey

import (
	"database/sql"

	"github.com/google/uuid"
	_ "github.com/lib/pq"
)

// Reserve moves amount from the available to the reserved balance; it
// checks the available balance but not the amount's sign.
func Reserve(db *sql.DB, userID string, amount int64) error {
	uid, err := uuid.Parse(userID)
	if err != nil {
		return err
	}
	_, err = db.Exec(`UPDATE balance SET available = available - $1, reserved = reserved + $1, updated_at = NOW() WHERE user_id = $2 AND available >= $1`, amount, uid)
	return err
}

// Release moves amount back from the reserved balance without checking
// that much is reserved; the user's text is bound to the UUID column.
func Release(db *sql.DB, userID string, amount int64) error {
	if amount <= 0 {
		return nil
	}
	_, err := db.Exec(`UPDATE balance SET reserved = reserved - $1, available = available + $1 WHERE user_id = $2`, amount, userID)
	return err
}
