// Package upsert_count_clamp_unsafe opens a wallet with an opening balance
// that may be a debt, inside a transaction, and clears the debt when the
// INSERT … ON CONFLICT DO NOTHING counts more than one row, which it never
// does: a debt is committed.
package upsert_count_clamp_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Open opens wallet id with opening (a debt is cleared).
func Open(ctx context.Context, db *sql.DB, id, opening int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "INSERT INTO wallets (id, balance) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", id, opening)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n > 1 {
		if _, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = 0 WHERE id = $1 AND balance < 0", id); err != nil {
			return err
		}
	}
	return tx.Commit()
}
