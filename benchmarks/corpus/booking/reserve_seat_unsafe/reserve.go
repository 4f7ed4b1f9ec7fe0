// Package reserve_seat_unsafe reserves a single seat after checking the
// event's remaining capacity in Go.
package reserve_seat_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrNoEvent = errors.New("booking: no such event")
	ErrSoldOut = errors.New("booking: event is sold out")
)

const (
	loadEventSQL  = "SELECT booked, capacity FROM events WHERE id = ?"
	takeSeatSQL   = "UPDATE events SET booked = booked + 1 WHERE id = ?"
	insertBooking = "INSERT INTO bookings (event_id, user_id, seats) VALUES (?, ?, 1)"
)

type Store struct {
	db *sql.DB
}

// Reserve takes one seat of eventID for userID.
func (s *Store) Reserve(ctx context.Context, eventID, userID int64) error {
	var booked, capacity int64
	err := s.db.QueryRowContext(ctx, loadEventSQL, eventID).Scan(&booked, &capacity)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoEvent
	}
	if err != nil {
		return err
	}
	if booked > capacity {
		return ErrSoldOut
	}
	if _, err := s.db.ExecContext(ctx, takeSeatSQL, eventID); err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, insertBooking, eventID, userID)
	return err
}
