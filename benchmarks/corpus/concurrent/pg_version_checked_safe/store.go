// Package pg_version_checked_safe is the inventory of a shop on PostgreSQL with optimistic
// locking: each product row carries a version.
//
// Optimistic locking with the version guard checked: a sale whose version is
// stale gets RowsAffected 0, returns ErrConflict and rolls back.
package pg_version_checked_safe

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
	if err := inv.db.QueryRowContext(ctx, "SELECT stock, version FROM products WHERE id = $1", id).Scan(&stock, &version); err != nil {
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
	res, err := tx.ExecContext(ctx, "UPDATE products SET stock = $1, version = version + 1 WHERE id = $2 AND version = $3", stock-qty, id, version)
	if err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sell: %w", err)
	} else if n != 1 {
		return ErrConflict
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET sold = sold + $1 WHERE id = $2", qty, id); err != nil {
		return fmt.Errorf("sell: %w", err)
	}
	return tx.Commit()
}
