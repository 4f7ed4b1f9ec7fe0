// Package cancel_safe cancels a booking and gives its seats back to the event.
package cancel_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrNotFound     = errors.New("booking: not found")
	ErrCorrupt      = errors.New("booking: booking has no seats")
	ErrInconsistent = errors.New("booking: event counter lower than booking")
)

const (
	lockBookingSQL  = "SELECT event_id, seats FROM bookings WHERE id = ? FOR UPDATE"
	deleteBooking   = "DELETE FROM bookings WHERE id = ?"
	releaseSeatsSQL = "UPDATE events SET booked = booked - ? WHERE id = ? AND booked >= ?"
)

type Store struct {
	db *sql.DB
}

// Cancel deletes the booking and decrements the event's booked counter.
func (s *Store) Cancel(ctx context.Context, bookingID int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var eventID, seats int64
	err = tx.QueryRowContext(ctx, lockBookingSQL, bookingID).Scan(&eventID, &seats)
	if err == sql.ErrNoRows {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	if seats <= 0 {
		return ErrCorrupt
	}
	if _, err := tx.ExecContext(ctx, deleteBooking, bookingID); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, releaseSeatsSQL, seats, eventID, seats)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrInconsistent
	}
	return tx.Commit()
}
