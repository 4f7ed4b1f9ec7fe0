// Package streaks starts login streaks and pays their points.
package streaks

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Start opens a streak of one day and pays the days it returns: the
// row returned is the row inserted, so days is 1.
func Start(ctx context.Context, db *sql.DB, userID int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id, days int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO streaks (user_id, days) VALUES ($1, 1) RETURNING id, days`, userID).Scan(&id, &days); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET points = points + $1 WHERE user_id = $2`, days, userID); err != nil {
		return err
	}
	return tx.Commit()
}

// Restart opens a streak of one day, reads it back in the transaction
// and pays its days: the row read back is the one inserted (days 1), but
// the model does not keep the values of a table the constraint does not
// watch, so the read is an approximation (UNKNOWN).
func Restart(ctx context.Context, db *sql.DB, userID int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO streaks (user_id, days) VALUES ($1, 1) RETURNING id`, userID).Scan(&id); err != nil {
		return err
	}
	var days int64
	if err := tx.QueryRowContext(ctx, `SELECT days FROM streaks WHERE id = $1`, id).Scan(&days); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET points = points + $1 WHERE user_id = $2`, days, userID); err != nil {
		return err
	}
	return tx.Commit()
}
