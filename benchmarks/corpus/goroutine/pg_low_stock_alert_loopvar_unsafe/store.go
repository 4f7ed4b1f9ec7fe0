// Package pg_low_stock_alert_loopvar_unsafe reserves the lines of an order
// on PostgreSQL and, for each line, tells the product's watchers in its
// own errgroup goroutine.
//
// Each goroutine reads the line of its own iteration (go >= 1.22: one
// range variable per iteration, written before the goroutine starts and
// never after) and only reads another table, so the goroutines commute
// with each other and with the reservations. But a reservation does not
// check the stock: a line of more than the stock leaves it negative
// (UNSAFE).
package pg_low_stock_alert_loopvar_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"

	_ "github.com/jackc/pgx/v5/stdlib"
	"golang.org/x/sync/errgroup"
)

// Line is one line of an order.
type Line struct {
	ProductID int64
	Qty       int64
}

// Inventory reserves stock.
type Inventory struct{ db *sql.DB }

func NewInventory(db *sql.DB) *Inventory { return &Inventory{db: db} }

// Reserve takes every line off its product's stock and tells the
// product's first watcher, in the background, how much was reserved.
func (inv *Inventory) Reserve(ctx context.Context, lines []Line) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, l := range lines {
		if l.Qty <= 0 {
			return fmt.Errorf("inventory: quantity %d of product %d", l.Qty, l.ProductID)
		}
		if _, err := inv.db.ExecContext(ctx,
			"UPDATE products SET stock = stock - $1 WHERE id = $2", l.Qty, l.ProductID); err != nil {
			return fmt.Errorf("reserve product %d: %w", l.ProductID, err)
		}
		g.Go(func() error {
			var email string
			err := inv.db.QueryRowContext(gctx, "SELECT email FROM watchers WHERE product_id = $1 ORDER BY email LIMIT 1", l.ProductID).Scan(&email)
			if errors.Is(err, sql.ErrNoRows) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("watchers of product %d: %w", l.ProductID, err)
			}
			log.Printf("inventory: telling %s that %d of product %d were reserved", email, l.Qty, l.ProductID)
			return nil
		})
	}
	return g.Wait()
}
