// Package book_negative_qty_unsafe books seats for a checkout request.
package book_negative_qty_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrBadRequest = errors.New("booking: missing event or user")
	ErrSoldOut    = errors.New("booking: not enough seats left")
)

const (
	reserveSQL = "UPDATE events SET booked = booked + ? WHERE id = ? AND booked + ? <= capacity"
	bookingSQL = "INSERT INTO bookings (event_id, user_id, seats) VALUES (?, ?, ?)"
)

// Book reserves seats on eventID for userID. The capacity check runs in
// the database so two requests can never oversell the event.
func Book(ctx context.Context, db *sql.DB, eventID, userID, seats int64) error {
	if eventID <= 0 || userID <= 0 {
		return ErrBadRequest
	}
	res, err := db.ExecContext(ctx, reserveSQL, seats, eventID, seats)
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
	_, err = db.ExecContext(ctx, bookingSQL, eventID, userID, seats)
	return err
}
