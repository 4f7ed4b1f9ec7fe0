// Package resize_capacity_safe changes the capacity of an event (the venue
// changed) without ever dropping below the seats already sold.
package resize_capacity_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidCapacity = errors.New("booking: capacity must not be negative")
	ErrBelowSold       = errors.New("booking: more seats sold than the new capacity")
)

const setCapacitySQL = "UPDATE events SET capacity = ? WHERE id = ? AND booked <= ?"

type Store struct {
	db *sql.DB
}

// SetCapacity sets the capacity of eventID to capacity.
func (s *Store) SetCapacity(ctx context.Context, eventID, capacity int64) error {
	if capacity < 0 {
		return ErrInvalidCapacity
	}
	res, err := s.db.ExecContext(ctx, setCapacitySQL, capacity, eventID, capacity)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrBelowSold
	}
	return nil
}
