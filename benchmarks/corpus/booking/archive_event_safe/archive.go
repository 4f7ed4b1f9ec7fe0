// Package archive_event_safe removes past events together with their
// bookings and waitlist entries.
package archive_event_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrNotPast = errors.New("booking: event has not happened yet")

// ArchiveEvent deletes eventID and everything that refers to it, provided
// the event started before cutoff (a unix timestamp).
func ArchiveEvent(ctx context.Context, db *sql.DB, eventID, cutoff int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	res, err := tx.ExecContext(ctx, "DELETE FROM events WHERE id = ? AND starts_at < ?", eventID, cutoff)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotPast
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM bookings WHERE event_id = ?", eventID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM waitlist WHERE event_id = ?", eventID); err != nil {
		return err
	}
	return tx.Commit()
}
