// Package release gives a hold's amount back to its wallet; the holds
// table's CHECK (amount > 0) was added NOT VALID by a migration.
package release

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ReleaseHold adds the hold's amount (positive, by its CHECK) to its wallet.
func ReleaseHold(ctx context.Context, db *sql.DB, holdID int64) error {
	var walletID, amount int64
	if err := db.QueryRowContext(ctx,
		`SELECT wallet_id, amount FROM holds WHERE id = $1`, holdID).Scan(&walletID, &amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, amount, walletID)
	return err
}
