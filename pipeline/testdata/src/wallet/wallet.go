// Package wallet debits wallets without checking the balance (Postgres
// placeholders): the schema's CHECK rejects an overdraft at run time.
package wallet

import (
	"context"
	"database/sql"
)

// Debit takes amount from the wallet id, unchecked.
func Debit(ctx context.Context, db *sql.DB, id, amount int64) error {
	_, err := db.ExecContext(ctx, "UPDATE wallets SET balance = balance - $1 WHERE id = $2", amount, id)
	return err
}

// Release lowers the wallet's hold, unchecked.
func Release(ctx context.Context, db *sql.DB, id, amount int64) error {
	_, err := db.ExecContext(ctx, "UPDATE wallets SET hold = hold - $1 WHERE id = $2", amount, id)
	return err
}
