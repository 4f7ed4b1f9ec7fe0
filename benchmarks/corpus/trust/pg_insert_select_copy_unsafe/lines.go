// Package pg_insert_select_copy_unsafe adds order lines priced from the
// catalogue with INSERT … SELECT: the price is copied from the product
// row (which its CHECK keeps non-negative), but a discount is taken from
// any product: a discount above the price stores a negative unit price.
package pg_insert_select_copy_unsafe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/lib/pq"
)

// Orders writes order lines.
type Orders struct{ DB *sql.DB }

// AddLine adds qty of sku to the order at the catalogue price.
func (o *Orders) AddLine(ctx context.Context, orderID int64, sku string, qty int64) error {
	_, err := o.DB.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, sku, qty, unit_price) SELECT $1, sku, $3, price FROM products WHERE sku = $2`,
		orderID, sku, qty)
	if err != nil {
		return fmt.Errorf("add %s to order %d: %w", sku, orderID, err)
	}
	return nil
}

// AddDiscounted adds one sku at the catalogue price less off.
func (o *Orders) AddDiscounted(ctx context.Context, orderID int64, sku string, off int64) (bool, error) {
	if off < 0 {
		return false, fmt.Errorf("negative discount %d", off)
	}
	res, err := o.DB.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, sku, qty, unit_price) SELECT $1, p.sku, 1, p.price - $3 FROM products p WHERE p.sku = $2`,
		orderID, sku, off)
	if err != nil {
		return false, fmt.Errorf("add %s to order %d: %w", sku, orderID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("add %s to order %d: %w", sku, orderID, err)
	}
	return n == 1, nil
}
