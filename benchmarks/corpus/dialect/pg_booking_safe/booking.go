// Package pg_booking_safe books seats for events (PostgreSQL).
package pg_booking_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

var (
	ErrInvalidSeats = errors.New("booking: seats must be positive")
	ErrEventClosed  = errors.New("booking: event not found or not open for booking")
	ErrSoldOut      = errors.New("booking: not enough seats left")
)

// Booking is a user's seats at an event.
type Booking struct {
	EventID   int64
	UserID    int64
	Seats     int64
	SeatsLeft int64
}

const (
	// The counter is bumped first; RETURNING hands back the new count
	// together with the capacity so that the caller can decide whether the
	// transaction may commit.
	claimSeatsSQL = `UPDATE events
SET booked = booked + $1
WHERE id = $2 AND status = 'open'
RETURNING booked, capacity`

	upsertBookingSQL = `INSERT INTO bookings AS b (event_id, user_id, seats)
VALUES ($1, $2, $3)
ON CONFLICT (event_id, user_id) DO UPDATE
SET seats = b.seats + EXCLUDED.seats, updated_at = now()
RETURNING seats`
)

// BookingStore persists bookings.
type BookingStore struct {
	db *sql.DB
}

func NewBookingStore(db *sql.DB) *BookingStore { return &BookingStore{db: db} }

// Book adds seats for userID to eventID, topping up an existing booking.
func (s *BookingStore) Book(ctx context.Context, eventID, userID, seats int64) (*Booking, error) {
	if seats <= 0 {
		return nil, ErrInvalidSeats
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return nil, fmt.Errorf("book: begin: %w", err)
	}
	defer tx.Rollback()

	var booked, capacity int64
	err = tx.QueryRowContext(ctx, claimSeatsSQL, seats, eventID).Scan(&booked, &capacity)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrEventClosed
	}
	if err != nil {
		return nil, fmt.Errorf("book: claim seats: %w", err)
	}
	if booked > capacity {
		// Over-booked: the deferred rollback gives the seats back.
		return nil, ErrSoldOut
	}

	b := &Booking{EventID: eventID, UserID: userID, SeatsLeft: capacity - booked}
	if err := tx.QueryRowContext(ctx, upsertBookingSQL, eventID, userID, seats).Scan(&b.Seats); err != nil {
		return nil, fmt.Errorf("book: upsert booking: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("book: commit: %w", err)
	}
	return b, nil
}
