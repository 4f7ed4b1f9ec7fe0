// Package group_book_unsafe books seats on several events at once, with a
// fast path for the common single-event request.
package group_book_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrEmpty           = errors.New("booking: empty group request")
	ErrInvalidQuantity = errors.New("booking: quantity must be positive")
	ErrSoldOut         = errors.New("booking: not enough seats left")
)

const reserveSQL = "UPDATE events SET booked = booked + ? WHERE id = ? AND booked + ? <= capacity"

// SeatRequest asks for Seats seats on event EventID.
type SeatRequest struct {
	EventID int64
	Seats   int64
}

type Store struct {
	db *sql.DB
}

// BookGroup reserves every request; a multi-event request is all-or-nothing.
func (s *Store) BookGroup(ctx context.Context, reqs []SeatRequest) error {
	if len(reqs) == 0 {
		return ErrEmpty
	}
	if len(reqs) == 1 {
		// Fast path: a single event needs no transaction.
		return s.reserveOne(ctx, reqs[0].EventID, reqs[0].Seats)
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
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return ErrSoldOut
		}
	}
	return tx.Commit()
}

func (s *Store) reserveOne(ctx context.Context, eventID, seats int64) error {
	res, err := s.db.ExecContext(ctx, reserveSQL, seats, eventID, seats)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrSoldOut
	}
	return nil
}
