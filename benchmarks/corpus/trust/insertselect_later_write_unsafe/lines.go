// Package insertselect_later_write_unsafe records order lines on MariaDB:
// the line's price is the product's, never negative by --assume, minus a
// discount the caller gives, so a product priced 0 gives a line priced
// -discount; the stock is lowered after the copy.
package insertselect_later_write_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// AddDiscountedLine copies the product's price less discount into a new
// order line, then takes one unit off the product's stock.
func AddDiscountedLine(ctx context.Context, db *sql.DB, order, product, discount int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, product_id, unit_price) SELECT ?, id, price - ? FROM products WHERE id = ?`,
		order, discount, product)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE products SET stock = stock - 1 WHERE id = ?`, product)
	return err
}
