// Package mysql_upsert_pk_first_safe records API usage of a registered
// tenant with INSERT … ON DUPLICATE KEY UPDATE on a table with two
// unique keys, tenant_id (PRIMARY KEY) and api_key. The tenant's row was
// read and checked under FOR UPDATE, so the new row conflicts with it on
// the PRIMARY KEY, which MariaDB checks first: the upsert updates the
// tenant's row even when the api_key is another tenant's (issue 8). The
// model let it update the api_key's row instead, another tenant's at its
// quota (a false UNSAFE, replay NOT REPRODUCED).
package mysql_upsert_pk_first_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrQuota is returned when the usage would pass the tenant's quota.
var ErrQuota = errors.New("quota exceeded")

// Record adds n units of usage to the row of the registered tenant.
func Record(ctx context.Context, db *sql.DB, tenantID int64, apiKey string, n int64) error {
	if n <= 0 {
		return errors.New("bad usage")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var used, quota int64
	err = tx.QueryRowContext(ctx, `SELECT used, quota FROM apikeys WHERE tenant_id = ? FOR UPDATE`, tenantID).Scan(&used, &quota)
	if err != nil {
		return err // sql.ErrNoRows: not a registered tenant
	}
	if used+n > quota {
		return ErrQuota
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO apikeys (tenant_id, api_key, used, quota) VALUES (?, ?, ?, 100)
		ON DUPLICATE KEY UPDATE used = used + VALUES(used)`, tenantID, apiKey, n); err != nil {
		return err
	}
	return tx.Commit()
}
