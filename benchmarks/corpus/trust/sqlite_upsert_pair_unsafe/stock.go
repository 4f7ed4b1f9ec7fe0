// Package sqlite_upsert_pair_unsafe moves stock with a two-row SQLite upsert; each delta is checked against its own SKU's stock.
package sqlite_upsert_pair_unsafe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrStock is returned when a move would leave a SKU below zero.
var ErrStock = errors.New("not enough stock")

// ErrSameSKU is returned when both deltas name one SKU.
var ErrSameSKU = errors.New("one SKU twice")

// Move applies two stock deltas in one multi-row upsert.
func Move(db *sql.DB, skuA string, dA int64, skuB string, dB int64) error {
	var qa, qb int64
	if err := db.QueryRow("SELECT qty FROM stock WHERE sku = ?", skuA).Scan(&qa); err != nil {
		return err
	}
	if err := db.QueryRow("SELECT qty FROM stock WHERE sku = ?", skuB).Scan(&qb); err != nil {
		return err
	}
	if qa+dA < 0 || qb+dB < 0 {
		return ErrStock
	}
	_, err := db.Exec(`INSERT INTO stock (sku, qty) VALUES (?, ?), (?, ?)
ON CONFLICT (sku) DO UPDATE SET qty = stock.qty + excluded.qty`, skuA, dA, skuB, dB)
	return err
}
