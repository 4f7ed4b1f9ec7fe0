// Package holds grows an event's seats through a hold that has not
// expired yet, compared with time.Now(): the replay must seed the hold's
// expiry after the replay's clock, not the model's.
package holds

import (
	"database/sql"
	"time"

	_ "modernc.org/sqlite"
)

// Grow adds extra seats to the event of hold holdID while the hold is
// valid, without checking the event's capacity.
func Grow(db *sql.DB, holdID, extra int64) error {
	if extra <= 0 {
		return nil
	}
	var eventID int64
	if err := db.QueryRow(`SELECT event_id FROM holds WHERE id = ? AND expires_at > ?`, holdID, time.Now()).Scan(&eventID); err != nil {
		return err
	}
	_, err := db.Exec(`UPDATE events SET sold = sold + ? WHERE id = ?`, extra, eventID)
	return err
}
