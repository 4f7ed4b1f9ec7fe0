// Package delete_returning_safe releases holds and merges wallets with
// DELETE … RETURNING: the values returned are the deleted row's, which
// satisfied the table's CHECK (a hold's amount > 0) and, for a wallet,
// balance >= 0. Adding them to a wallet keeps its balance >= 0.
package delete_returning_safe

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ReleaseHold deletes a hold and gives its amount back to its wallet.
func ReleaseHold(ctx context.Context, db *sql.DB, holdID int64) error {
	var walletID, amount int64
	if err := db.QueryRowContext(ctx,
		`DELETE FROM holds WHERE id = $1 RETURNING wallet_id, amount`, holdID).Scan(&walletID, &amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, amount, walletID)
	return err
}

// Merge closes wallet fromID and moves its balance to wallet toID.
func Merge(ctx context.Context, db *sql.DB, fromID, toID int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, `DELETE FROM wallets WHERE id = $1 RETURNING balance`, fromID).Scan(&bal); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, bal, toID); err != nil {
		return err
	}
	return tx.Commit()
}
