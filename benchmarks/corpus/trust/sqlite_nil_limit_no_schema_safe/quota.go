// Package sqlite_nil_limit_no_schema_safe keeps API quotas (SQLite) whose
// limit is optional: a nil limit clears it. Checked without --schema.
package sqlite_nil_limit_no_schema_safe

import (
	"database/sql"

	_ "modernc.org/sqlite"
)

// SetLimit sets a non-negative limit, or clears it (NULL) for nil: a NULL
// limit breaks no lim >= 0 (a CHECK accepts NULL), and on a NOT NULL
// column the UPDATE fails.
func SetLimit(db *sql.DB, id int64, limit *int64) error {
	if limit != nil && *limit < 0 {
		return nil
	}
	_, err := db.Exec("UPDATE quotas SET lim = ? WHERE id = ?", limit, id)
	return err
}
