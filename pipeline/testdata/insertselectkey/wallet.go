// Package insertselectkey inserts a row of wallets selected from wallets
// with the source row's own key (pipeline's TestInsertSelectOwnKey).
package insertselectkey

import (
	"context"
	"database/sql"
)

// Rebate re-inserts a wallet's row with 5 less: the key is the source
// row's, which exists, so the INSERT always fails (a duplicate key):
// SAFE.
func Rebate(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO wallets (id, balance) SELECT id, balance - 5 FROM wallets WHERE id = $1`, id)
	return err
}

// Copy inserts a wallet with another key and 5 less: UNSAFE.
func Copy(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO wallets (id, balance) SELECT id + 1000, balance - 5 FROM wallets WHERE id = $1`, id)
	return err
}
