// Package tenant_isnull_safe charges a fee on a live account of a
// tenant, read and written by (tenant_id, id) and deleted_at IS NULL:
// the row debited is the row whose balance covers the fee.
package tenant_isnull_safe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Fee debits fee from the live account (tenantID, accountID) when its
// balance covers it.
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
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE tenant_id = $2 AND id = $3 AND deleted_at IS NULL`, fee, tenantID, accountID)
	return err
}
