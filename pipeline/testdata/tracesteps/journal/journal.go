// Package journal writes a journal entry, in a table the constraint does
// not watch, before it debits the wallet: the INSERT's step must not say
// it affected no row.
package journal

import (
	"context"
	"database/sql"
)

// Spend journals the debit of amount+1 after checking only amount.
func Spend(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM wallets WHERE id = $1 FOR UPDATE`, id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO entries (wallet_id, amount) VALUES ($1, $2)`, id, -(amount + 1)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amount+1, id); err != nil {
		return err
	}
	return tx.Commit()
}
