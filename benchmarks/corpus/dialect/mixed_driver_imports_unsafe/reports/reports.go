// Package reports counts page views in the reporting database, on MySQL.
package reports

import (
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Open opens the reporting database.
func Open(dsn string) (*sql.DB, error) { return sql.Open("mysql", dsn) }

// View counts one view of page id.
func View(db *sql.DB, id int64) error {
	_, err := db.Exec("UPDATE page_views SET views = views + 1 WHERE id = ?", id)
	return err
}
