// Package delete_returning_unsafe releases a hold with DELETE …
// RETURNING but charges its amount to the wallet instead of giving it
// back: a wallet whose balance is below the hold's amount goes negative.
package delete_returning_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ReleaseHold deletes a hold and (wrongly) debits its amount.
func ReleaseHold(ctx context.Context, db *sql.DB, holdID int64) error {
	var walletID, amount int64
	if err := db.QueryRowContext(ctx,
		`DELETE FROM holds WHERE id = $1 RETURNING wallet_id, amount`, holdID).Scan(&walletID, &amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amount, walletID)
	return err
}
