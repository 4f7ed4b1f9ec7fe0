// Package pg_domain_check_safe gives a hold's amount back to its wallet;
// the amount's type is a PostgreSQL domain whose CHECK says VALUE > 0, so
// the wallet's balance only grows.
package pg_domain_check_safe

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ReleaseHold reads a hold and credits its amount to its wallet.
func ReleaseHold(ctx context.Context, db *sql.DB, holdID int64) error {
	var walletID, amount int64
	if err := db.QueryRowContext(ctx,
		`SELECT wallet_id, amount FROM holds WHERE id = $1`, holdID).Scan(&walletID, &amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, amount, walletID)
	return err
}
