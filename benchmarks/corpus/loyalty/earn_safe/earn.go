// Package earn_safe credits loyalty points and records them in the ledger.
package earn_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInvalidPoints = errors.New("loyalty: points must be positive")

type Store struct {
	db *sql.DB
}

// Earn credits points to memberID for reason (e.g. "purchase", "review").
func (s *Store) Earn(ctx context.Context, memberID, points int64, reason string) error {
	if points <= 0 {
		return ErrInvalidPoints
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	if _, err := tx.ExecContext(ctx,
		"UPDATE members SET points = points + ?, lifetime_points = lifetime_points + ? WHERE id = ?",
		points, points, memberID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx,
		"INSERT INTO point_ledger (member_id, delta, reason) VALUES (?, ?, ?)",
		memberID, points, reason); err != nil {
		return err
	}
	return tx.Commit()
}
