// Package mysql_sell_relative_safe is the inventory of a shop on MySQL.
//
// The sale written relatively on MySQL (SET stock = stock - ?, sold = sold +
// ?): the UPDATE is a current read of the latest version, so stock + sold is
// preserved.
package mysql_sell_relative_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
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
	tx, err := inv.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = ?", id).Scan(&stock); err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	if stock < qty {
		return ErrOutOfStock
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = stock - ?, sold = sold + ? WHERE id = ?", qty, qty, id); err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	return tx.Commit()
}
