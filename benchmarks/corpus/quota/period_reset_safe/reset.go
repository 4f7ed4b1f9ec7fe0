// Package period_reset_safe starts a new billing period for a set of tenants.
package period_reset_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrBadLimit = errors.New("quota: limit must not be negative")

type Store struct {
	db *sql.DB
}

// ResetPeriod sets usage back to zero and the quota to the plan's limit for
// every quota row in ids, all or nothing.
func (s *Store) ResetPeriod(ctx context.Context, ids []int64, limit int64) error {
	if limit < 0 {
		return ErrBadLimit
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, "UPDATE quotas SET used = 0, quota = ? WHERE id = ?", limit, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO quota_periods (quota_id, quota) VALUES (?, ?)", id, limit); err != nil {
			return err
		}
	}
	return tx.Commit()
}
