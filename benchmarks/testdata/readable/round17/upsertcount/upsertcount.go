// Package upsertcount opens an account unless it exists.
package upsertcount

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// Open inserts an account with an opening balance unless the id exists.
func Open(ctx context.Context, db *sql.DB, id int64, owner string, opening int64) error {
	res, err := db.ExecContext(ctx, "INSERT INTO accounts (id, owner, balance) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING", id, owner, opening)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n > 1 {
		return errors.New("too many")
	}
	return nil
}

// Seed inserts an account unless the id exists, ignoring the count.
func Seed(ctx context.Context, db *sql.DB, id int64, opening int64) error {
	_, err := db.ExecContext(ctx, "INSERT INTO accounts (id, owner, balance) VALUES ($1, 'seed', $2) ON CONFLICT DO NOTHING", id, opening)
	return err
}
