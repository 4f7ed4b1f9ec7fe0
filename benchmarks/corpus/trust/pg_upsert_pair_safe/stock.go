// Package pg_upsert_pair_safe moves stock with a two-row PostgreSQL upsert; each delta is checked against its own SKU's stock.
package pg_upsert_pair_safe

import (
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrStock is returned when a move would leave a SKU below zero.
var ErrStock = errors.New("not enough stock")

// ErrSameSKU is returned when both deltas name one SKU.
var ErrSameSKU = errors.New("one SKU twice")

// Move applies two stock deltas in one multi-row upsert.
func Move(db *sql.DB, skuA string, dA int64, skuB string, dB int64) error {
	var qa, qb int64
	if err := db.QueryRow("SELECT qty FROM stock WHERE sku = $1", skuA).Scan(&qa); err != nil {
		return err
	}
	if err := db.QueryRow("SELECT qty FROM stock WHERE sku = $1", skuB).Scan(&qb); err != nil {
		return err
	}
	if qa+dA < 0 || qb+dB < 0 {
		return ErrStock
	}
	_, err := db.Exec(`INSERT INTO stock (sku, qty) VALUES ($1, $2), ($3, $4)
ON CONFLICT (sku) DO UPDATE SET qty = stock.qty + excluded.qty`, skuA, dA, skuB, dB)
	return err
}
