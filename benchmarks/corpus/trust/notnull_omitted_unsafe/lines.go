// Package notnull_omitted_unsafe records order lines on MariaDB. The
// INSERTs give order_lines.note, so they succeed, with whatever price the
// product row or the clerk gives: -1 included.
package notnull_omitted_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// AddLine copies the current price of a product into a new order line.
func AddLine(ctx context.Context, db *sql.DB, order, product int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, product_id, unit_price, note) SELECT ?, id, price, '' FROM products WHERE id = ?`,
		order, product)
	return err
}

// AddManual records a line with a price typed by a clerk.
func AddManual(ctx context.Context, db *sql.DB, order, product, price int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, product_id, unit_price, note) VALUES (?, ?, ?, '')`, order, product, price)
	return err
}
