// Package adjust_points_unsafe applies customer-service corrections to a
// member's balance.
package adjust_points_unsafe

import (
	"context"
	"database/sql"
)

type Store struct {
	db *sql.DB
}

// Adjust adds delta (possibly negative) to memberID's balance; a correction
// can never take away more points than the member has.
func (s *Store) Adjust(ctx context.Context, memberID, delta int64, note string) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var points int64
	if err := tx.QueryRowContext(ctx, "SELECT points FROM members WHERE id = ? FOR UPDATE", memberID).Scan(&points); err != nil {
		return 0, err
	}
	newPoints := points + delta
	if delta < -points {
		delta = -points // cannot take away more than the member has
	}
	if _, err := tx.ExecContext(ctx, "UPDATE members SET points = ? WHERE id = ?", newPoints, memberID); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO point_ledger (member_id, delta, reason) VALUES (?, ?, ?)",
		memberID, delta, note); err != nil {
		return 0, err
	}
	return newPoints, tx.Commit()
}
