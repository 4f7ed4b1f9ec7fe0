// Package mysql_upsert_two_keys_safe is mysql_upsert_two_keys_unsafe
// with the api_key's owner checked first (adv7 m74c): the row the upsert
// updates conflicts with the new row on tenant_id or on api_key, and
// either way it is the tenant's own row, whose usage was checked under
// FOR UPDATE. The model let the update hit a row that conflicts on
// neither key (a false UNSAFE: another tenant's row, over its quota).
package mysql_upsert_two_keys_safe

import (
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Record adds n units of usage to the tenant's row.
func Record(db *sql.DB, tenantID int64, apiKey string, n int64) error {
	if n <= 0 || n > 100 {
		return errors.New("bad usage")
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var owner int64
	err = tx.QueryRow(`SELECT tenant_id FROM apikeys WHERE api_key = ? FOR UPDATE`, apiKey).Scan(&owner)
	if err == nil && owner != tenantID {
		return errors.New("api key belongs to another tenant")
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	var used, quota int64
	err = tx.QueryRow(`SELECT used, quota FROM apikeys WHERE tenant_id = ? FOR UPDATE`, tenantID).Scan(&used, &quota)
	if err == nil && used+n > quota {
		return errors.New("quota exceeded")
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if _, err := tx.Exec(`INSERT INTO apikeys (tenant_id, api_key, used, quota) VALUES (?, ?, ?, 100)
		ON DUPLICATE KEY UPDATE used = used + VALUES(used)`, tenantID, apiKey, n); err != nil {
		return err
	}
	return tx.Commit()
}
