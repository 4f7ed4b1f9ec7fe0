// Package cancel_commit_unsafe cancels a booking and repairs the event
// counter afterwards if it went negative.
package cancel_commit_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrCorrupt      = errors.New("booking: booking has no seats")
	ErrInconsistent = errors.New("booking: event counter was lower than booking")
)

type Store struct {
	db *sql.DB
}

// Cancel deletes the booking and returns its seats to the event.
func (s *Store) Cancel(ctx context.Context, bookingID int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var eventID, seats int64
	if err := tx.QueryRowContext(ctx, "SELECT event_id, seats FROM bookings WHERE id = ? FOR UPDATE", bookingID).Scan(&eventID, &seats); err != nil {
		return err
	}
	if seats <= 0 {
		return ErrCorrupt
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM bookings WHERE id = ?", bookingID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE events SET booked = booked - ? WHERE id = ?", seats, eventID); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}

	// Sanity check: undo the decrement if the counter went negative.
	var booked int64
	if err := s.db.QueryRowContext(ctx, "SELECT booked FROM events WHERE id = ?", eventID).Scan(&booked); err != nil {
		return err
	}
	if booked < 0 {
		if _, err := s.db.ExecContext(ctx, "UPDATE events SET booked = booked + ? WHERE id = ?", seats, eventID); err != nil {
			return err
		}
		return ErrInconsistent
	}
	return nil
}
