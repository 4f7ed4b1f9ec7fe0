// Package pg_upsert_serial_unsafe is sqlite_upsert_rowid_safe on
// PostgreSQL: the pass id is a BIGSERIAL the upsert leaves out. A
// sequence is not advanced by rows inserted with an explicit id
// (imported passes), so its next value can be an existing pass's id:
// the upsert then takes its DO UPDATE branch and uses that pass once
// more, past its maximum.
package pg_upsert_serial_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Issue adds a pass for holder, used once, valid for maxUses uses.
func Issue(ctx context.Context, db *sql.DB, holder string, maxUses int64) error {
	if maxUses < 1 {
		maxUses = 1
	}
	_, err := db.ExecContext(ctx, `INSERT INTO passes (holder, uses, max_uses) VALUES ($1, 1, $2)
		ON CONFLICT (id) DO UPDATE SET uses = passes.uses + 1`, holder, maxUses)
	return err
}
