// Package sqlite_stocktake_text_safe records stock-take counts of a shop
// app on SQLite. The counted quantity arrives as form text; it is checked
// with strconv.Atoi, and the text itself is bound to the INTEGER column
// (SQLite's integer affinity stores the number).
package sqlite_stocktake_text_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	_ "modernc.org/sqlite"
)

// ErrBadCount means a count that is not a whole number of items.
var ErrBadCount = errors.New("stocktake: count must be a whole number >= 0")

// Stocktake records counts.
type Stocktake struct{ db *sql.DB }

func NewStocktake(db *sql.DB) *Stocktake { return &Stocktake{db: db} }

// Record sets the quantity of sku to the counted one.
func (s *Stocktake) Record(ctx context.Context, sku, counted string) error {
	n, err := strconv.Atoi(counted)
	if err != nil || n < 0 {
		return ErrBadCount
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE stock SET qty = ? WHERE sku = ?`, counted, sku); err != nil {
		return fmt.Errorf("record %s: %w", sku, err)
	}
	return nil
}
