// Package sqliteopen opens a SQLite database whose driver another package
// imports, and upserts with SQLite syntax.
package sqliteopen

import "database/sql"

// Open opens the inventory database.
func Open(path string) (*sql.DB, error) { return sql.Open("sqlite", path) }

// Upsert adds qty to the stock of sku.
func Upsert(db *sql.DB, sku string, qty int64) error {
	_, err := db.Exec(`INSERT INTO stock (sku, qty) VALUES (?1, ?2)
		ON CONFLICT(sku) DO UPDATE SET qty = qty + excluded.qty`, sku, qty)
	return err
}
