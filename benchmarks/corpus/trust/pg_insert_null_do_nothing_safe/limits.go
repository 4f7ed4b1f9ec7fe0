// Package pg_insert_null_do_nothing_safe opens credit limits (PostgreSQL) of
// at least 100; a nil requested limit is refused by the database.
package pg_insert_null_do_nothing_safe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Open refuses a request below 100; a nil one is a NULL, which ON CONFLICT
// DO NOTHING does not let through (23502, not-null violation).
func Open(ctx context.Context, db *sql.DB, id int64, requested *int64) error {
	if requested != nil && *requested < 100 {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT INTO limits (id, credit_limit) VALUES ($1, $2) ON CONFLICT DO NOTHING", id, requested)
	return err
}
