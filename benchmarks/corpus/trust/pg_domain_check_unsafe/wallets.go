// Package pg_domain_check_unsafe debits a hold's amount (positive by its
// domain's CHECK) from a wallet without checking the balance covers it.
package pg_domain_check_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// CaptureHold reads a hold and debits its amount from its wallet.
func CaptureHold(ctx context.Context, db *sql.DB, holdID int64) error {
	var walletID, amount int64
	if err := db.QueryRowContext(ctx,
		`SELECT wallet_id, amount FROM holds WHERE id = $1`, holdID).Scan(&walletID, &amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amount, walletID)
	return err
}
