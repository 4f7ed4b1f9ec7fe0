// Package consume_check_after_safe charges a quota optimistically and rolls
// back when the charge went over the limit.
package consume_check_after_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrQuotaExceeded = errors.New("quota: exceeded")

type Limiter struct {
	db *sql.DB
}

// Consume adds n to the usage of quota row id, unless that exceeds the quota.
func (l *Limiter) Consume(ctx context.Context, id, n int64) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	if _, err := tx.ExecContext(ctx, "UPDATE quotas SET used = used + ? WHERE id = ?", n, id); err != nil {
		return err
	}
	var used, quota int64
	if err := tx.QueryRowContext(ctx, "SELECT used, quota FROM quotas WHERE id = ?", id).Scan(&used, &quota); err != nil {
		return err
	}
	if used > quota {
		return ErrQuotaExceeded // deferred Rollback undoes the charge
	}
	return tx.Commit()
}
