// Package change_plan_unsafe moves a tenant to another plan, which changes
// its quota for the current billing period.
package change_plan_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrBadQuota  = errors.New("quota: quota must not be negative")
	ErrOverQuota = errors.New("quota: usage already exceeds the new plan")
)

type Store struct {
	db *sql.DB
}

// ChangePlan sets the quota of quota row id to newQuota. Downgrades are
// refused while the tenant uses more than the new plan allows.
func (s *Store) ChangePlan(ctx context.Context, id, newQuota int64, plan string) error {
	if newQuota < 0 {
		return ErrBadQuota
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var used, quota int64
	if err := tx.QueryRowContext(ctx, "SELECT used, quota FROM quotas WHERE id = ? FOR UPDATE", id).Scan(&used, &quota); err != nil {
		return err
	}
	if newQuota == quota {
		return nil
	}
	if newQuota < quota && used > quota {
		return ErrOverQuota
	}
	if _, err := tx.ExecContext(ctx, "UPDATE quotas SET quota = ?, plan = ? WHERE id = ?", newQuota, plan, id); err != nil {
		return err
	}
	return tx.Commit()
}
