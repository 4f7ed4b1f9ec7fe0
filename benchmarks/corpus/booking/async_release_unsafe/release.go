// Package async_release_unsafe releases a seat hold (seats kept in a cart
// for 10 minutes) and returns the seats to the event in the background.
package async_release_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"log"
)

var ErrInvalidHold = errors.New("booking: hold has no seats")

type Store struct {
	db *sql.DB
}

// ReleaseHold deletes the hold and gives its seats back to the event.
func (s *Store) ReleaseHold(ctx context.Context, holdID int64) error {
	var eventID, seats int64
	if err := s.db.QueryRowContext(ctx, "SELECT event_id, seats FROM holds WHERE id = ?", holdID).Scan(&eventID, &seats); err != nil {
		return err
	}
	if seats <= 0 {
		return ErrInvalidHold
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM holds WHERE id = ?", holdID); err != nil {
		return err
	}
	// The counter update is slow under contention; do not make the
	// user wait for it.
	go s.returnSeats(eventID, seats)
	return nil
}

func (s *Store) returnSeats(eventID, seats int64) {
	if _, err := s.db.Exec("UPDATE events SET booked = booked - ? WHERE id = ?", seats, eventID); err != nil {
		log.Printf("release seats of event %d: %v", eventID, err)
	}
}
