// Package api_quota_safe meters API usage against a per-tenant quota.
package api_quota_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidCost   = errors.New("quota: cost must be positive")
	ErrUnknownTenant = errors.New("quota: unknown tenant")
	ErrQuotaExceeded = errors.New("quota: exceeded")
)

const (
	lockQuotaSQL = "SELECT used, quota FROM quotas WHERE tenant_id = ? FOR UPDATE"
	chargeSQL    = "UPDATE quotas SET used = used + ? WHERE tenant_id = ?"
)

type Limiter struct {
	db *sql.DB
}

func NewLimiter(db *sql.DB) *Limiter { return &Limiter{db: db} }

// Consume charges n units to tenant, or fails with ErrQuotaExceeded.
func (l *Limiter) Consume(ctx context.Context, tenant string, n int64) error {
	if n <= 0 {
		return ErrInvalidCost
	}
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var used, quota int64
	err = tx.QueryRowContext(ctx, lockQuotaSQL, tenant).Scan(&used, &quota)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrUnknownTenant
	}
	if err != nil {
		return err
	}
	if used+n > quota {
		return ErrQuotaExceeded
	}
	if _, err := tx.ExecContext(ctx, chargeSQL, n, tenant); err != nil {
		return err
	}
	return tx.Commit()
}
