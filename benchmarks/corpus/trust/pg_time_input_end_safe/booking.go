// Package pg_time_input_end_safe moves the end of a booking to a time
// the caller passes, bound as it came in, only where the booking starts
// before it.
package pg_time_input_end_safe

import (
	"context"
	"database/sql"
	"time"

	_ "github.com/lib/pq"
)

// Extend moves the end of booking id to newEnd.
func Extend(ctx context.Context, db *sql.DB, id int64, newEnd time.Time) error {
	_, err := db.ExecContext(ctx, `UPDATE bookings SET end_at = $1 WHERE id = $2 AND start_at < $1`, newEnd, id)
	return err
}
