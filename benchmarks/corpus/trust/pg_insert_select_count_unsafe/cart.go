// Package pg_insert_select_count_unsafe adds catalogue items to a cart
// whose free slots are counted: INSERT … SELECT copies the product row
// chosen by its SKU, the table's primary key, so it inserts at most one
// line, and the cart's slots are debited by the rows it inserted; but the
// check lets a cart with no free slot through (slots < 0 instead of
// slots < 1): a full cart goes to -1.
package pg_insert_select_count_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

// ErrFull is returned when the cart has no free slot.
var ErrFull = errors.New("cart full")

// Carts writes carts and their order lines.
type Carts struct{ DB *sql.DB }

// Add copies product sku into cart cartID, using one of its slots.
func (c *Carts) Add(ctx context.Context, cartID int64, sku string) error {
	tx, err := c.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var slots int64
	if err := tx.QueryRowContext(ctx, `SELECT slots FROM carts WHERE id = $1 FOR UPDATE`, cartID).Scan(&slots); err != nil {
		return fmt.Errorf("cart %d: %w", cartID, err)
	}
	if slots < 0 {
		return ErrFull
	}
	res, err := tx.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, sku, unit_price) SELECT $1, sku, price FROM products WHERE sku = $2`,
		cartID, sku)
	if err != nil {
		return fmt.Errorf("add %s: %w", sku, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE carts SET slots = slots - $1 WHERE id = $2`, n, cartID); err != nil {
		return err
	}
	return tx.Commit()
}
