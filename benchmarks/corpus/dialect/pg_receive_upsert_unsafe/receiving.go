// Package pg_receive_upsert_unsafe books goods received at a warehouse dock
// into per-warehouse stock levels (PostgreSQL).
package pg_receive_upsert_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

var ErrInvalidQuantity = errors.New("receiving: quantity must not be zero")

const (
	// A SKU seen for the first time in a warehouse gets a new row; otherwise
	// the received quantity is added to what is on hand.
	addStockSQL = `INSERT INTO stock_levels AS sl (warehouse_id, sku, on_hand)
VALUES ($1, $2, $3)
ON CONFLICT (warehouse_id, sku) DO UPDATE
SET on_hand = sl.on_hand + EXCLUDED.on_hand, updated_at = now()
RETURNING on_hand`

	logMovementSQL = `INSERT INTO stock_movements (warehouse_id, sku, delta, reason)
VALUES ($1, $2, $3, CASE WHEN $3 > 0 THEN 'received' ELSE 'damaged' END)`
)

// Receiving books received goods into stock.
type Receiving struct {
	db *sql.DB
}

func NewReceiving(db *sql.DB) *Receiving { return &Receiving{db: db} }

// Receive books qty units of sku into warehouseID and logs the movement,
// atomically. It returns the new quantity on hand. A negative qty books a
// correction (goods found damaged at the dock after they were received).
func (r *Receiving) Receive(ctx context.Context, warehouseID int64, sku string, qty int64) (int64, error) {
	if qty == 0 {
		return 0, ErrInvalidQuantity
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var onHand int64
	if err := tx.QueryRowContext(ctx, addStockSQL, warehouseID, sku, qty).Scan(&onHand); err != nil {
		return 0, fmt.Errorf("receiving: add stock of %s: %w", sku, err)
	}
	if _, err := tx.ExecContext(ctx, logMovementSQL, warehouseID, sku, qty); err != nil {
		return 0, fmt.Errorf("receiving: log movement: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return onHand, nil
}
