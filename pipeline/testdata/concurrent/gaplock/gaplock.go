// Package gaplock books guests into a room-day row that the first booking
// creates: SELECT … FOR UPDATE of the missing row takes an InnoDB gap
// lock at REPEATABLE READ, so two first bookings deadlock at their
// INSERTs and the retry sees the row.
package gaplock

import (
	"context"
	"database/sql"
	"errors"
)

const capacity = 4

var errFull = errors.New("room is full that day")

// Rooms is the booking store.
type Rooms struct{ db *sql.DB }

// Book books guests into room roomID on day, retrying failures (the
// deadlock's 1213 among them).
func (r *Rooms) Book(ctx context.Context, roomID, day, guests int64) error {
	if guests <= 0 || guests > capacity {
		return errors.New("bad request")
	}
	for attempt := 0; attempt < 3; attempt++ {
		err := r.book(ctx, roomID, day, guests)
		if err != nil && !errors.Is(err, errFull) {
			continue
		}
		return err
	}
	return errors.New("gave up after deadlocks")
}

func (r *Rooms) book(ctx context.Context, roomID, day, guests int64) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var booked, cap int64
	err = tx.QueryRowContext(ctx, "SELECT booked, capacity FROM room_days WHERE room_id = ? AND day = ? FOR UPDATE", roomID, day).Scan(&booked, &cap)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = tx.ExecContext(ctx, "INSERT INTO room_days (room_id, day, booked, capacity) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE booked = booked + VALUES(booked)",
			roomID, day, guests, capacity)
	case err != nil:
		return err
	default:
		if booked+guests > cap {
			return errFull
		}
		_, err = tx.ExecContext(ctx, "UPDATE room_days SET booked = booked + ? WHERE room_id = ? AND day = ?", guests, roomID, day)
	}
	if err != nil {
		return err
	}
	return tx.Commit()
}
