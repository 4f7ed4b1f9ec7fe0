// Package promote_waitlist_safe moves waitlisted requests into bookings when
// seats free up (after cancellations or a capacity increase).
package promote_waitlist_safe

import (
	"context"
	"database/sql"
)

type waiting struct {
	id, userID, seats int64
}

type Store struct {
	db *sql.DB
}

// Promote books as many waitlisted requests of eventID as still fit, in
// waitlist order, skipping requests that are too large.
func (s *Store) Promote(ctx context.Context, eventID int64) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var booked, capacity int64
	if err := tx.QueryRowContext(ctx, "SELECT booked, capacity FROM events WHERE id = ? FOR UPDATE", eventID).Scan(&booked, &capacity); err != nil {
		return 0, err
	}
	free := capacity - booked

	rows, err := tx.QueryContext(ctx, "SELECT id, user_id, seats FROM waitlist WHERE event_id = ? ORDER BY id", eventID)
	if err != nil {
		return 0, err
	}
	var queue []waiting
	for rows.Next() {
		var w waiting
		if err := rows.Scan(&w.id, &w.userID, &w.seats); err != nil {
			rows.Close()
			return 0, err
		}
		queue = append(queue, w)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	rows.Close()

	promoted := 0
	for _, w := range queue {
		if w.seats <= 0 || w.seats > free {
			continue
		}
		if _, err := tx.ExecContext(ctx, "UPDATE events SET booked = booked + ? WHERE id = ?", w.seats, eventID); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO bookings (event_id, user_id, seats) VALUES (?, ?, ?)", eventID, w.userID, w.seats); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM waitlist WHERE id = ?", w.id); err != nil {
			return 0, err
		}
		free -= w.seats
		promoted++
	}
	return promoted, tx.Commit()
}
