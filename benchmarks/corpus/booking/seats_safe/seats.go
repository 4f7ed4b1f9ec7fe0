// Package seats_safe books seats on an event; the capacity check is part of
// the UPDATE itself, so no separate read is needed.
package seats_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidQuantity = errors.New("booking: quantity must be positive")
	ErrSoldOut         = errors.New("booking: not enough seats left")
)

const reserveSeatsSQL = "UPDATE events SET booked = booked + ? " +
	"WHERE id = ? AND booked + ? <= capacity"

const insertBookingSQL = "INSERT INTO bookings (event_id, user_id, seats) VALUES (?, ?, ?)"

type Store struct {
	db *sql.DB
}

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Book reserves qty seats on the event for the user.
func (s *Store) Book(ctx context.Context, eventID, userID, qty int64) error {
	if qty <= 0 {
		return ErrInvalidQuantity
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	res, err := tx.ExecContext(ctx, reserveSeatsSQL, qty, eventID, qty)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrSoldOut
	}
	if _, err := tx.ExecContext(ctx, insertBookingSQL, eventID, userID, qty); err != nil {
		return err
	}
	return tx.Commit()
}
