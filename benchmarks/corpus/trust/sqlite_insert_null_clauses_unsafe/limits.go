// Package sqlite_insert_null_clauses_unsafe opens credit limits (SQLite) of
// at least 100; a nil requested limit is the default — which is 50 here.
package sqlite_insert_null_clauses_unsafe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// OpenOrIgnore takes a nil request as 50: ifnull(NULL, 50) is no NULL, so
// INSERT OR IGNORE stores it.
func OpenOrIgnore(ctx context.Context, db *sql.DB, id int64, requested *int64) error {
	if requested != nil && *requested < 100 {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT OR IGNORE INTO limits (id, credit_limit) VALUES (?, ifnull(?, 50))", id, requested)
	return err
}

// OpenOrReplace refuses a request below 100; INSERT OR REPLACE stores the
// column's DEFAULT, 50, for a nil one.
func OpenOrReplace(ctx context.Context, db *sql.DB, id int64, requested *int64) error {
	if requested != nil && *requested < 100 {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT OR REPLACE INTO limits (id, credit_limit) VALUES (?, ?)", id, requested)
	return err
}
