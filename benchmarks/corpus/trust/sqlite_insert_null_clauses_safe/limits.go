// Package sqlite_insert_null_clauses_safe opens credit limits (SQLite) of at
// least 100; a nil requested limit is the default. Each conflict clause
// treats the NULL of a nil *int64 as SQLite does.
package sqlite_insert_null_clauses_safe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// OpenOrIgnore floors the request at 100: max(NULL, 100) is NULL, and INSERT
// OR IGNORE skips a row with a NULL for the NOT NULL column, no error.
func OpenOrIgnore(ctx context.Context, db *sql.DB, id int64, requested *int64) error {
	_, err := db.ExecContext(ctx, "INSERT OR IGNORE INTO limits (id, credit_limit) VALUES (?, max(?, 100))", id, requested)
	return err
}

// OpenDoNothing refuses a request below 100; a nil one is a NULL, which ON
// CONFLICT DO NOTHING does not let through (NOT NULL constraint failed).
func OpenDoNothing(ctx context.Context, db *sql.DB, id int64, requested *int64) error {
	if requested != nil && *requested < 100 {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT INTO limits (id, credit_limit) VALUES (?, ?) ON CONFLICT DO NOTHING", id, requested)
	return err
}

// OpenOrReplace refuses a request below 100; INSERT OR REPLACE stores the
// column's DEFAULT, 100, for a nil one.
func OpenOrReplace(ctx context.Context, db *sql.DB, id int64, requested *int64) error {
	if requested != nil && *requested < 100 {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT OR REPLACE INTO limits (id, credit_limit) VALUES (?, ?)", id, requested)
	return err
}
