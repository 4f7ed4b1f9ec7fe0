// Package ondup_select_ambiguous_safe merges a cart item into another cart
// on MariaDB with INSERT … SELECT from cart_items itself and ON DUPLICATE
// KEY UPDATE qty = qty + VALUES(qty): the unqualified qty is ambiguous
// between the target and the SELECT's table, and MariaDB fails every run
// with error 1052, so the merge (which would add a quantity lowered by 100)
// never changes a row.
package ondup_select_ambiguous_safe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Move adds cart from's item sku, less 100, into cart to.
func Move(ctx context.Context, db *sql.DB, to, from, sku int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO cart_items (cart_id, sku, qty) SELECT ?, sku, qty - 100 FROM cart_items WHERE cart_id = ? AND sku = ? ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)`,
		to, from, sku)
	return err
}
