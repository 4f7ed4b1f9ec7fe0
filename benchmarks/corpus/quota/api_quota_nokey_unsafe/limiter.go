// Package api_quota_nokey_unsafe meters API usage against the quota of the
// API key used by the caller.
package api_quota_nokey_unsafe

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

// Consume charges n units to the quota of apiKey.
func (l *Limiter) Consume(ctx context.Context, apiKey string, n int64) error {
	if n <= 0 {
		return ErrInvalidCost
	}
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var used, quota int64
	err = tx.QueryRowContext(ctx, "SELECT used, quota FROM quotas WHERE api_key = ? FOR UPDATE", apiKey).Scan(&used, &quota)
	if err != nil {
		return err
	}
	if used+n > quota {
		return ErrQuotaExceeded
	}
	if _, err := tx.ExecContext(ctx, "UPDATE quotas SET used = used + ? WHERE api_key = ?", n, apiKey); err != nil {
		return err
	}
	return tx.Commit()
}
