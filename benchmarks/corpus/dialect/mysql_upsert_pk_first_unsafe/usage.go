// Package mysql_upsert_pk_first_unsafe is mysql_upsert_pk_first_safe
// checking the usage of the api_key's row instead of the tenant's: when
// the api_key belongs to another tenant and the tenant has a row, the
// upsert conflicts with the tenant's row on the PRIMARY KEY, which
// MariaDB checks first, and adds the usage to it unchecked, past its
// quota.
package mysql_upsert_pk_first_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrQuota is returned when the usage would pass the key's quota.
var ErrQuota = errors.New("quota exceeded")

// Record adds n units of usage to the tenant's row.
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
	err = tx.QueryRowContext(ctx, `SELECT used, quota FROM apikeys WHERE api_key = ? FOR UPDATE`, apiKey).Scan(&used, &quota)
	if err != nil {
		return err // sql.ErrNoRows: not a registered key
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
