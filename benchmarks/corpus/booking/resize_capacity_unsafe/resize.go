// Package resize_capacity_unsafe changes the capacity of an event (the venue
// changed) and records the change in capacity_log.
package resize_capacity_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInvalidCapacity = errors.New("booking: capacity must not be negative")

type Store struct {
	db *sql.DB
}

// SetCapacity sets the capacity of eventID, but never below the seats
// already sold.
func (s *Store) SetCapacity(ctx context.Context, eventID, capacity int64) error {
	if capacity < 0 {
		return ErrInvalidCapacity
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var booked int64
	if err := tx.QueryRowContext(ctx, "SELECT booked FROM events WHERE id = ? FOR UPDATE", eventID).Scan(&booked); err != nil {
		return err
	}
	requested := capacity
	if capacity < booked {
		capacity = booked // never below what is already sold
	}
	if _, err := tx.ExecContext(ctx, "UPDATE events SET capacity = ? WHERE id = ?", requested, eventID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO capacity_log (event_id, requested, applied) VALUES (?, ?, ?)", eventID, requested, capacity); err != nil {
		return err
	}
	return tx.Commit()
}
