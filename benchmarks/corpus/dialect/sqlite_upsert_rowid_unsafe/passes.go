// Package sqlite_upsert_rowid_unsafe issues day passes in SQLite. A pass
// is a row whose id is the rowid (INTEGER PRIMARY KEY); the client picks
// the pass id, and the upsert on id counts a repeated id as one more use
// of that pass, without looking at how often it was used.
package sqlite_upsert_rowid_unsafe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Issue adds pass id for holder, used once, valid for maxUses uses; an
// existing pass id is used once more.
func Issue(ctx context.Context, db *sql.DB, id int64, holder string, maxUses int64) error {
	if maxUses < 1 {
		maxUses = 1
	}
	_, err := db.ExecContext(ctx, `INSERT INTO passes (id, holder, uses, max_uses) VALUES (?, ?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET uses = uses + 1`, id, holder, maxUses)
	return err
}
