// Package quota counts a tenant's API calls: a table keyed by tenant_id,
// which no schema declares here, so two rows may share a tenant_id.
package quota

import (
	"context"
	"database/sql"
	"errors"
)

// ErrQuota rejects a call beyond the tenant's limit.
var ErrQuota = errors.New("quota exceeded")

// Use reads the counter, checks it and increments it.
func Use(ctx context.Context, db *sql.DB, tenant int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var used, limit int64
	if err := tx.QueryRowContext(ctx, `SELECT used, lim FROM quotas WHERE tenant_id = $1`, tenant).Scan(&used, &limit); err != nil {
		return err
	}
	if used >= limit {
		return ErrQuota
	}
	if _, err := tx.ExecContext(ctx, `UPDATE quotas SET used = used + 1 WHERE tenant_id = $1`, tenant); err != nil {
		return err
	}
	return tx.Commit()
}
