// Package mysql_insert_ignore_clip_safe records stock levels (MySQL) with
// INSERT IGNORE, which stores a value out of the column's range clipped to
// it instead of failing.
package mysql_insert_ignore_clip_safe

import (
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Record refuses a count below 1: a larger one than the INT UNSIGNED column
// holds is stored as 4294967295, still positive.
func Record(db *sql.DB, sku, qty int64) error {
	if qty < 1 {
		return nil
	}
	_, err := db.Exec("INSERT IGNORE INTO stock (sku, qty) VALUES (?, ?)", sku, qty)
	return err
}

// Add adds a positive qty to an existing lot (or opens it with qty): the
// sum, clipped at the INT column's bound, stays positive.
func Add(db *sql.DB, id, qty int64) error {
	if qty < 1 {
		return nil
	}
	_, err := db.Exec("INSERT IGNORE INTO lots (id, qty) VALUES (?, ?) ON DUPLICATE KEY UPDATE qty = qty + ?", id, qty, qty)
	return err
}
