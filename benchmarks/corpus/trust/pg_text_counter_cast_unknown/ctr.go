// Package pg_text_counter_cast_unknown keeps legacy counters stored as text.
package pg_text_counter_cast_unknown

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Take takes n from the named counter if it has that many left.
func Take(ctx context.Context, db *sql.DB, name string, n int64) error {
	if n <= 0 {
		return errors.New("bad n")
	}
	res, err := db.ExecContext(ctx, `UPDATE counters SET remaining = (remaining::bigint - $1)::text
		WHERE name = $2 AND remaining::bigint >= $1`, n, name)
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k == 0 {
		return errors.New("exhausted")
	}
	return nil
}
