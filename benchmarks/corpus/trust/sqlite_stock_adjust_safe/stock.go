// Package sqlite_stock_adjust_safe is the stock ledger of a shop app on
// SQLite: a stock count adjusts a SKU's quantity by a signed delta, creating
// the row on first sight (an upsert).
package sqlite_stock_adjust_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite"
)

// ErrNoChange means a zero adjustment.
var ErrNoChange = errors.New("stock: zero adjustment")

// Ledger records stock adjustments.
type Ledger struct{ db *sql.DB }

func NewLedger(db *sql.DB) *Ledger { return &Ledger{db: db} }

// Adjust adds delta (negative for shrinkage) to the quantity of sku; the
// quantity never goes below zero (SQLite's two-argument max).
func (l *Ledger) Adjust(ctx context.Context, sku string, delta int64) (int64, error) {
	if delta == 0 {
		return 0, ErrNoChange
	}
	var qty int64
	err := l.db.QueryRowContext(ctx, `
		INSERT INTO stock (sku, qty) VALUES (?1, max(?2, 0))
		ON CONFLICT(sku) DO UPDATE SET qty = max(stock.qty + ?2, 0)
		RETURNING qty`, sku, delta).Scan(&qty)
	if err != nil {
		return 0, fmt.Errorf("adjust %s: %w", sku, err)
	}
	return qty, nil
}
