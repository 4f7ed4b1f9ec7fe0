// Package streaks imports login streaks and pays their points.
package streaks

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Import stores a streak carried over from the old system and pays the
// days it returns: nothing checks the imported days, and a negative
// count takes points away.
func Import(ctx context.Context, db *sql.DB, userID, carried int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var days int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO streaks (user_id, days) VALUES ($1, $2) RETURNING days`, userID, carried).Scan(&days); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET points = points + $1 WHERE user_id = $2`, days, userID); err != nil {
		return err
	}
	return tx.Commit()
}
