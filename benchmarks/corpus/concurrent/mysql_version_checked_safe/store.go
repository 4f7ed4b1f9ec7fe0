// Package mysql_version_checked_safe is the inventory of a shop on MySQL with optimistic
// locking: each product row carries a version.
//
// Optimistic locking on MySQL with the version guard checked: a stale sale
// returns ErrConflict and rolls back.
package mysql_version_checked_safe

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
	ErrConflict    = errors.New("inventory: concurrent update, try again")
)

// Inventory keeps each product's stock and the count sold.
type Inventory struct{ db *sql.DB }

func NewInventory(db *sql.DB) *Inventory { return &Inventory{db: db} }

// Sell takes qty units of product id out of stock and counts them sold.
func (inv *Inventory) Sell(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return ErrBadQuantity
	}
	var stock, version int64
	if err := inv.db.QueryRowContext(ctx, "SELECT stock, version FROM products WHERE id = ?", id).Scan(&stock, &version); err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	if stock < qty {
		return ErrOutOfStock
	}
	tx, err := inv.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE products SET stock = ?, version = version + 1 WHERE id = ? AND version = ?", stock-qty, id, version)
	if err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sell: %w", err)
	} else if n != 1 {
		return ErrConflict
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET sold = sold + ? WHERE id = ?", qty, id); err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	return tx.Commit()
}
