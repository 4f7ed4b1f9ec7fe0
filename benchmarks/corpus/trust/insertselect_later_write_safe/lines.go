// Package insertselect_later_write_safe records order lines on MariaDB:
// the line's price is copied from the product row, which --assume says is
// never negative; the stock is lowered after the copy, which does not
// change the price read.
package insertselect_later_write_safe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// AddLine copies the current price of a product into a new order line,
// then takes one unit off the product's stock.
func AddLine(ctx context.Context, db *sql.DB, order, product int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, product_id, unit_price) SELECT ?, id, price FROM products WHERE id = ?`,
		order, product)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE products SET stock = stock - 1 WHERE id = ?`, product)
	return err
}
