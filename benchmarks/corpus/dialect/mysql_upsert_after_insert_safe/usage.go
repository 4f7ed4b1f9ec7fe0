// Package mysql_upsert_after_insert_safe registers a tenant and records
// its first usage in one transaction: the INSERT creates the tenant's
// row (usage 0, quota 100), then INSERT … ON DUPLICATE KEY UPDATE adds
// at most 100 to it. The upsert conflicts with the row just inserted on
// the PRIMARY KEY, which MariaDB checks first, whatever row holds the
// api_key (issue 8). A row the model does not track (the one inserted,
// when it is not the watched row) then decides the row updated: the
// model must not pick the api_key's row there as if no row had the
// tenant_id (a false UNSAFE): the choice is an approximation, UNKNOWN.
package mysql_upsert_after_insert_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Register creates the tenant's row with newKey and records n units of
// usage under apiKey.
func Register(ctx context.Context, db *sql.DB, tenantID int64, newKey, apiKey string, n int64) error {
	if n <= 0 || n > 100 {
		return errors.New("bad usage")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO apikeys (tenant_id, api_key, used, quota) VALUES (?, ?, 0, 100)`, tenantID, newKey); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO apikeys (tenant_id, api_key, used, quota) VALUES (?, ?, ?, 100)
		ON DUPLICATE KEY UPDATE used = used + VALUES(used)`, tenantID, apiKey, n); err != nil {
		return err
	}
	return tx.Commit()
}
