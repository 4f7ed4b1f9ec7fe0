// Package sqlite_upsert_rowid_safe issues day passes in SQLite. A pass
// is a row whose id is the rowid (INTEGER PRIMARY KEY); the insert is
// written as an upsert on id, but it leaves the id out, so SQLite gives
// a new rowid (one more than the largest) and the DO UPDATE branch never
// runs.
package sqlite_upsert_rowid_safe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Issue adds a pass for holder, used once, valid for maxUses uses.
func Issue(ctx context.Context, db *sql.DB, holder string, maxUses int64) error {
	if maxUses < 1 {
		maxUses = 1
	}
	_, err := db.ExecContext(ctx, `INSERT INTO passes (holder, uses, max_uses) VALUES (?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET uses = uses + 1`, holder, maxUses)
	return err
}
