// Package reports counts page views in the reporting database, on
// PostgreSQL.
package reports

import (
	"database/sql"

	_ "github.com/lib/pq"
)

// View counts one view of page id.
func View(db *sql.DB, id int64) error {
	_, err := db.Exec("UPDATE page_views SET views = views + 1 WHERE id = $1", id)
	return err
}
