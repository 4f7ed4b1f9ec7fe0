// Package expire_safe implements the "points expire after 18 months of
// inactivity" rule and account closure.
package expire_safe

import (
	"context"
	"database/sql"
)

type Store struct {
	db *sql.DB
}

// ExpireInactive zeroes the balance of every member inactive since cutoff
// (a unix timestamp) and returns how many members lost points.
func (s *Store) ExpireInactive(ctx context.Context, cutoff int64) (int64, error) {
	res, err := s.db.ExecContext(ctx,
		"UPDATE members SET points = 0, expired_at = ? WHERE last_active_at < ? AND points > 0",
		cutoff, cutoff)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Close deletes a member and their ledger.
func (s *Store) Close(ctx context.Context, memberID int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM point_ledger WHERE member_id = ?", memberID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM members WHERE id = ?", memberID); err != nil {
		return err
	}
	return tx.Commit()
}
