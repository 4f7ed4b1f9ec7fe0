// Package mysql_receive_upsert_safe books goods received at a warehouse dock
// into per-warehouse stock levels (MySQL).
package mysql_receive_upsert_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var ErrInvalidQuantity = errors.New("receiving: quantity must be positive")

const (
	// A SKU seen for the first time in a warehouse gets a new row (the
	// unique key is (warehouse_id, sku)); otherwise the received quantity is
	// added to what is on hand.
	addStockSQL = "INSERT INTO `stock_levels` (`warehouse_id`, `sku`, `on_hand`) VALUES (?, ?, ?) " +
		"ON DUPLICATE KEY UPDATE `on_hand` = `on_hand` + VALUES(`on_hand`), `updated_at` = NOW()"

	logMovementSQL = "INSERT INTO `stock_movements` SET `warehouse_id` = ?, `sku` = ?, `delta` = ?, `reason` = 'received'"
)

// Receiving books received goods into stock.
type Receiving struct {
	db *sql.DB
}

func NewReceiving(db *sql.DB) *Receiving { return &Receiving{db: db} }

// Receive books qty units of sku into warehouseID and logs the movement,
// atomically.
func (r *Receiving) Receive(ctx context.Context, warehouseID int64, sku string, qty int64) error {
	if qty <= 0 {
		return ErrInvalidQuantity
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	if _, err := tx.ExecContext(ctx, addStockSQL, warehouseID, sku, qty); err != nil {
		return fmt.Errorf("receiving: add stock of %s: %w", sku, err)
	}
	if _, err := tx.ExecContext(ctx, logMovementSQL, warehouseID, sku, qty); err != nil {
		return fmt.Errorf("receiving: log movement: %w", err)
	}
	return tx.Commit()
}
