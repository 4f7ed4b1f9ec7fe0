// Package sqlite_open_account_rowid_unsafe opens accounts in SQLite; the
// account id is the rowid (INTEGER PRIMARY KEY), which the INSERT leaves
// out for SQLite to assign. The opening balance is not checked.
package sqlite_open_account_rowid_unsafe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Open adds an account with an opening balance.
func Open(ctx context.Context, db *sql.DB, owner string, opening int64) error {
	_, err := db.ExecContext(ctx, `INSERT INTO accounts (owner, balance) VALUES (?, ?)`, owner, opening)
	return err
}
