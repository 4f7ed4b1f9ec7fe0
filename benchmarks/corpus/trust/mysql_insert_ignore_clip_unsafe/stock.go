// Package mysql_insert_ignore_clip_unsafe records stock levels (MySQL) with
// INSERT IGNORE, which stores a value out of the column's range clipped to
// it instead of failing.
package mysql_insert_ignore_clip_unsafe

import (
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Record refuses a zero count only: INSERT IGNORE stores -1 as 0 in the
// INT UNSIGNED column.
func Record(db *sql.DB, sku, qty int64) error {
	if qty == 0 {
		return nil
	}
	_, err := db.Exec("INSERT IGNORE INTO stock (sku, qty) VALUES (?, ?)", sku, qty)
	return err
}

// Take debits qty from an existing lot without checking it: the ON
// DUPLICATE KEY UPDATE of an INSERT IGNORE runs too.
func Take(db *sql.DB, id, qty int64) error {
	if qty <= 0 {
		return nil
	}
	_, err := db.Exec("INSERT IGNORE INTO lots (id, qty) VALUES (?, 0) ON DUPLICATE KEY UPDATE qty = qty - ?", id, qty)
	return err
}
