// Package tenant_isnull_unsafe charges a fee on a live account of a
// tenant, read by (tenant_id, id) and deleted_at IS NULL, but writes it
// by id only: another tenant's live account with the same id, whose
// balance is below the fee, goes negative.
package tenant_isnull_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Fee debits fee from the live account (tenantID, accountID) when its
// balance covers it, but the UPDATE forgets tenant_id.
func Fee(ctx context.Context, db *sql.DB, tenantID, accountID, fee int64) error {
	if fee <= 0 {
		return nil
	}
	var bal int64
	if err := db.QueryRowContext(ctx,
		`SELECT balance FROM accounts WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`,
		tenantID, accountID).Scan(&bal); err != nil {
		return err
	}
	if bal < fee {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND deleted_at IS NULL`, fee, accountID)
	return err
}
