// Package wallet debits wallets without checking the balance.
package wallet

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// Pay debits amount from the wallet; it checks the amount but not the
// balance.
func Pay(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("wallet: amount must be positive")
	}
	_, err := db.ExecContext(ctx, `UPDATE wallets SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}
