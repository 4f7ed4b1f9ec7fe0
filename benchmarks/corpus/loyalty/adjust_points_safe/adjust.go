// Package adjust_points_safe applies customer-service corrections to a
// member's balance.
package adjust_points_safe

import (
	"context"
	"database/sql"
)

type Store struct {
	db *sql.DB
}

// Adjust adds delta (possibly negative) to memberID's balance, flooring the
// result at zero, and returns the new balance.
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
	if newPoints < 0 {
		newPoints = 0
	}
	if _, err := tx.ExecContext(ctx, "UPDATE members SET points = ? WHERE id = ?", newPoints, memberID); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO point_ledger (member_id, delta, reason) VALUES (?, ?, ?)",
		memberID, newPoints-points, note); err != nil {
		return 0, err
	}
	return newPoints, tx.Commit()
}
