// Package mysql_upsert_two_keys_unsafe records API usage per tenant in
// MySQL, creating the tenant's row on first use with INSERT … ON
// DUPLICATE KEY UPDATE. The table has two unique keys, tenant_id and
// api_key: the usage check reads the tenant's row only, but the upsert
// also conflicts on the api_key, so an api_key that belongs to another
// tenant adds the usage to that tenant's row, past its quota (adv7 m74).
package mysql_upsert_two_keys_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

const defaultQuota = 100

// ErrQuota is returned when the usage would pass the tenant's quota.
var ErrQuota = errors.New("quota exceeded")

// Record adds n units of usage to the tenant's row.
func Record(ctx context.Context, db *sql.DB, tenantID int64, apiKey string, n int64) error {
	if n <= 0 || n > defaultQuota {
		return errors.New("bad usage")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var used, quota int64
	err = tx.QueryRowContext(ctx, `SELECT used, quota FROM apikeys WHERE tenant_id = ? FOR UPDATE`, tenantID).Scan(&used, &quota)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		// first use: the row is created below with the default quota
	case err != nil:
		return err
	case used+n > quota:
		return ErrQuota
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO apikeys (tenant_id, api_key, used, quota) VALUES (?, ?, ?, ?)
		ON DUPLICATE KEY UPDATE used = used + VALUES(used)`, tenantID, apiKey, n, defaultQuota); err != nil {
		return err
	}
	return tx.Commit()
}
