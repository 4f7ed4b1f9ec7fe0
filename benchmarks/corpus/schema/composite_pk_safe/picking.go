// Package composite_pk_safe picks order lines from warehouse stock
// (PostgreSQL). Stock is kept per (warehouse, SKU).
package composite_pk_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

var (
	ErrInvalidQuantity   = errors.New("picking: quantity must be positive")
	ErrNotStocked        = errors.New("picking: SKU not stocked in this warehouse")
	ErrInsufficientStock = errors.New("picking: not enough stock on hand")
)

const (
	lockStockSQL = `SELECT on_hand FROM stock_levels
WHERE warehouse_id = $1 AND sku = $2
FOR UPDATE`

	pickSQL = `UPDATE stock_levels
SET on_hand = on_hand - $3, updated_at = now()
WHERE warehouse_id = $1 AND sku = $2`

	logPickSQL = `INSERT INTO stock_movements (warehouse_id, sku, delta, order_id)
VALUES ($1, $2, -$3::integer, $4)`
)

// StockRepo updates stock levels.
type StockRepo struct {
	db *sql.DB
}

func NewStockRepo(db *sql.DB) *StockRepo { return &StockRepo{db: db} }

// Pick takes qty units of sku from warehouseID for orderID.
func (r *StockRepo) Pick(ctx context.Context, orderID, warehouseID int64, sku string, qty int64) error {
	if qty <= 0 {
		return ErrInvalidQuantity
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var onHand int64
	err = tx.QueryRowContext(ctx, lockStockSQL, warehouseID, sku).Scan(&onHand)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotStocked
	}
	if err != nil {
		return fmt.Errorf("picking: lock %s: %w", sku, err)
	}
	if onHand < qty {
		return ErrInsufficientStock
	}
	if _, err := tx.ExecContext(ctx, pickSQL, warehouseID, sku, qty); err != nil {
		return fmt.Errorf("picking: update %s: %w", sku, err)
	}
	if _, err := tx.ExecContext(ctx, logPickSQL, warehouseID, sku, qty, orderID); err != nil {
		return fmt.Errorf("picking: log movement: %w", err)
	}
	return tx.Commit()
}
