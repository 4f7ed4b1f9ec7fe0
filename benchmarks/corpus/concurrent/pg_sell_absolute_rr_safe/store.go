// Package pg_sell_absolute_rr_safe is the inventory of a shop on PostgreSQL.
//
// The absolute write of the new stock at REPEATABLE READ (sql.TxOptions):
// the second of two racing sales fails with 40001 instead of overwriting the
// stock.
package pg_sell_absolute_rr_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadQuantity = errors.New("inventory: quantity must be positive")
	ErrOutOfStock  = errors.New("inventory: out of stock")
)

// Inventory keeps each product's stock and the count sold.
type Inventory struct{ db *sql.DB }

func NewInventory(db *sql.DB) *Inventory { return &Inventory{db: db} }

// Sell takes qty units of product id out of stock and counts them sold.
func (inv *Inventory) Sell(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return ErrBadQuantity
	}
	tx, err := inv.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	if stock < qty {
		return ErrOutOfStock
	}
	// The new stock is computed here; sold is counted in SQL.
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = $1, sold = sold + $2 WHERE id = $3", stock-qty, qty, id); err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	return tx.Commit()
}
