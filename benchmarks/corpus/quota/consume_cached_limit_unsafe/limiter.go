// Package consume_cached_limit_unsafe charges a quota optimistically and
// rolls back when the charge went over the plan limit. The plan limit comes
// from the in-memory plan cache to save a column read.
package consume_cached_limit_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidCost   = errors.New("quota: cost must be positive")
	ErrQuotaExceeded = errors.New("quota: exceeded")
)

type Limiter struct {
	db *sql.DB
}

// Consume adds n to the usage of quota row id; planLimit is the tenant's
// limit from the plan cache.
func (l *Limiter) Consume(ctx context.Context, id, n, planLimit int64) error {
	if n <= 0 {
		return ErrInvalidCost
	}
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	if _, err := tx.ExecContext(ctx, "UPDATE quotas SET used = used + ? WHERE id = ?", n, id); err != nil {
		return err
	}
	var used int64
	if err := tx.QueryRowContext(ctx, "SELECT used FROM quotas WHERE id = ?", id).Scan(&used); err != nil {
		return err
	}
	if used > planLimit {
		return ErrQuotaExceeded
	}
	return tx.Commit()
}
