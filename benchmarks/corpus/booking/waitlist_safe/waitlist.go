// Package waitlist_safe books seats or, when the event is full, puts the
// request on the event's waitlist.
package waitlist_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInvalidQuantity = errors.New("booking: quantity must be positive")

const (
	lockEventSQL  = "SELECT booked, capacity FROM events WHERE id = ? FOR UPDATE"
	addBookedSQL  = "UPDATE events SET booked = booked + ? WHERE id = ?"
	insertBooking = "INSERT INTO bookings (event_id, user_id, seats) VALUES (?, ?, ?)"
	insertWaiting = "INSERT INTO waitlist (event_id, user_id, seats) VALUES (?, ?, ?)"
)

type Store struct {
	db *sql.DB
}

// BookOrWait books seats on eventID, or waitlists the user if they do not fit.
func (s *Store) BookOrWait(ctx context.Context, eventID, userID, seats int64) (waitlisted bool, err error) {
	if seats <= 0 {
		return false, ErrInvalidQuantity
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()

	var booked, capacity int64
	if err := tx.QueryRowContext(ctx, lockEventSQL, eventID).Scan(&booked, &capacity); err != nil {
		return false, err
	}
	if booked+seats > capacity {
		if _, err := tx.ExecContext(ctx, insertWaiting, eventID, userID, seats); err != nil {
			return false, err
		}
		return true, tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, addBookedSQL, seats, eventID); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, insertBooking, eventID, userID, seats); err != nil {
		return false, err
	}
	return false, tx.Commit()
}
