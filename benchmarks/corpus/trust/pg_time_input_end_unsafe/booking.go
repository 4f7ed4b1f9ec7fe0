// Package pg_time_input_end_unsafe moves the end of a booking to a time
// the caller passes, bound as it came in; nothing compares it with the
// booking's start.
package pg_time_input_end_unsafe

import (
	"context"
	"database/sql"
	"time"

	_ "github.com/lib/pq"
)

// Extend moves the end of booking id to newEnd.
func Extend(ctx context.Context, db *sql.DB, id int64, newEnd time.Time) error {
	_, err := db.ExecContext(ctx, `UPDATE bookings SET end_at = $1 WHERE id = $2`, newEnd, id)
	return err
}
