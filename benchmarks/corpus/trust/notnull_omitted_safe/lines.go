// Package notnull_omitted_safe records order lines on MariaDB. Both
// INSERTs leave out order_lines.note, NOT NULL without a DEFAULT: strict
// mode refuses every such row (Error 1364 "Field 'note' doesn't have a
// default value"), so no line with a negative price is ever stored.
package notnull_omitted_safe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// AddLine copies the current price of a product into a new order line.
func AddLine(ctx context.Context, db *sql.DB, order, product int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, product_id, unit_price) SELECT ?, id, price FROM products WHERE id = ?`,
		order, product)
	return err
}

// AddManual records a line with a price typed by a clerk.
func AddManual(ctx context.Context, db *sql.DB, order, product, price int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO order_lines (order_id, product_id, unit_price) VALUES (?, ?, ?)`, order, product, price)
	return err
}
