// Package mysql8_upsert_alias_unsafe books goods received into stock on
// MySQL 8, with the row-alias form of ON DUPLICATE KEY UPDATE that
// replaced VALUES(col) in MySQL 8.0.20.
package mysql8_upsert_alias_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

// ErrBadQuantity means a receipt of no goods.
var ErrBadQuantity = errors.New("receiving: quantity must not be zero")

// Receiving books deliveries.
type Receiving struct{ db *sql.DB }

func NewReceiving(db *sql.DB) *Receiving { return &Receiving{db: db} }

// Receive adds qty units of sku to the stock level, creating it on the
// first delivery. Returns to the supplier are booked as negative receipts,
// and only a zero quantity is refused: on_hand 2 with qty -5 is -3.
func (r *Receiving) Receive(ctx context.Context, sku string, qty int64) error {
	if qty == 0 {
		return ErrBadQuantity
	}
	_, err := r.db.ExecContext(ctx, `INSERT INTO stock_levels (sku, on_hand) VALUES (?, ?) AS new
		ON DUPLICATE KEY UPDATE on_hand = stock_levels.on_hand + new.on_hand`, sku, qty)
	if err != nil {
		return fmt.Errorf("receive %s: %w", sku, err)
	}
	return nil
}
