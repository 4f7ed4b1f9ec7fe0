// Package group_book_safe books seats on several events at once (a festival
// pass): either every event gets its seats or none does.
package group_book_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var (
	ErrEmpty           = errors.New("booking: empty group request")
	ErrInvalidQuantity = errors.New("booking: quantity must be positive")
	ErrSoldOut         = errors.New("booking: not enough seats left")
)

const (
	reserveSQL = "UPDATE events SET booked = booked + ? WHERE id = ? AND booked + ? <= capacity"
	bookingSQL = "INSERT INTO bookings (event_id, user_id, seats) VALUES (?, ?, ?)"
)

// SeatRequest asks for Seats seats on event EventID.
type SeatRequest struct {
	EventID int64
	Seats   int64
}

type Store struct {
	db *sql.DB
}

// BookGroup reserves every request for userID in one transaction.
func (s *Store) BookGroup(ctx context.Context, userID int64, reqs []SeatRequest) error {
	if len(reqs) == 0 {
		return ErrEmpty
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	for _, r := range reqs {
		if r.Seats <= 0 {
			return ErrInvalidQuantity
		}
		res, err := tx.ExecContext(ctx, reserveSQL, r.Seats, r.EventID, r.Seats)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("event %d: %w", r.EventID, ErrSoldOut)
		}
		if _, err := tx.ExecContext(ctx, bookingSQL, r.EventID, userID, r.Seats); err != nil {
			return err
		}
	}
	return tx.Commit()
}
