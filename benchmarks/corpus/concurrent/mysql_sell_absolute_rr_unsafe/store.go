// Package mysql_sell_absolute_rr_unsafe is the inventory of a shop on MySQL.
//
// Lost update with an absolute write at InnoDB's default REPEATABLE READ:
// the plain SELECT reads the snapshot, the UPDATE overwrites the latest
// version without a first-updater check. Two sales of 1 from 10 leave stock
// 9 and sold 2.
package mysql_sell_absolute_rr_unsafe

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
	// The new stock is computed here; sold is counted in SQL.
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = ?, sold = sold + ? WHERE id = ?", stock-qty, qty, id); err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	return tx.Commit()
}
