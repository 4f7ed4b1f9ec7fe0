// Package pg_insert_null_do_nothing_unsafe opens credit limits (PostgreSQL)
// of at least 100; a nil requested limit is taken as 50.
package pg_insert_null_do_nothing_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Open refuses a request below 100, but a nil one becomes COALESCE(NULL, 50).
func Open(ctx context.Context, db *sql.DB, id int64, requested *int64) error {
	if requested != nil && *requested < 100 {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT INTO limits (id, credit_limit) VALUES ($1, COALESCE($2, 50)) ON CONFLICT DO NOTHING", id, requested)
	return err
}
