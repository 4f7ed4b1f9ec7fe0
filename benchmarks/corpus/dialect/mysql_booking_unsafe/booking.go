// Package mysql_booking_unsafe books seats for events (MySQL).
package mysql_booking_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrInvalidSeats = errors.New("booking: seats must be positive")
	ErrSoldOut      = errors.New("booking: event closed, unknown or not enough seats left")
)

const (
	// The capacity check is part of the UPDATE: no row changes when the
	// event is full.
	claimSeatsSQL = "UPDATE `events` SET `booked` = `booked` + ? " +
		"WHERE `id` = ? AND `status` = 'open' AND `booked` < `capacity`"

	upsertBookingSQL = "INSERT INTO `bookings` (`event_id`, `user_id`, `seats`, `created_at`) " +
		"VALUES (?, ?, ?, NOW()) " +
		"ON DUPLICATE KEY UPDATE `seats` = `seats` + VALUES(`seats`)"
)

// BookingStore persists bookings.
type BookingStore struct {
	db *sql.DB
}

func NewBookingStore(db *sql.DB) *BookingStore { return &BookingStore{db: db} }

// Book adds seats for userID to eventID, topping up an existing booking.
func (s *BookingStore) Book(ctx context.Context, eventID, userID, seats int64) error {
	if seats <= 0 {
		return ErrInvalidSeats
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("book: begin: %w", err)
	}
	defer tx.Rollback()

	res, err := tx.ExecContext(ctx, claimSeatsSQL, seats, eventID)
	if err != nil {
		return fmt.Errorf("book: claim seats: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("book: claim seats: %w", err)
	}
	if n == 0 {
		return ErrSoldOut
	}
	if _, err := tx.ExecContext(ctx, upsertBookingSQL, eventID, userID, seats); err != nil {
		return fmt.Errorf("book: upsert booking: %w", err)
	}
	return tx.Commit()
}
