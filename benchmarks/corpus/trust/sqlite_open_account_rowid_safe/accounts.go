// Package sqlite_open_account_rowid_safe opens accounts in SQLite; the
// account id is the rowid (INTEGER PRIMARY KEY), which the INSERT leaves
// out for SQLite to assign. The opening balance is checked.
package sqlite_open_account_rowid_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// Open adds an account with an opening balance, which must not be negative.
func Open(ctx context.Context, db *sql.DB, owner string, opening int64) error {
	if opening < 0 {
		return errors.New("negative opening balance")
	}
	_, err := db.ExecContext(ctx, `INSERT INTO accounts (owner, balance) VALUES (?, ?)`, owner, opening)
	return err
}
