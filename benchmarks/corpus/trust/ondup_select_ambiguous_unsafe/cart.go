// Package ondup_select_ambiguous_unsafe merges a cart item into another
// cart on MariaDB as ondup_select_ambiguous_safe does, with the SELECT's
// table aliased and the column qualified, which MariaDB runs: a quantity
// lowered by 100 is added to the target row, below 0.
package ondup_select_ambiguous_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Move adds cart from's item sku, less 100, into cart to.
func Move(ctx context.Context, db *sql.DB, to, from, sku int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO cart_items (cart_id, sku, qty) SELECT ?, c.sku, c.qty - 100 FROM cart_items c WHERE c.cart_id = ? AND c.sku = ? ON DUPLICATE KEY UPDATE qty = cart_items.qty + VALUES(qty)`,
		to, from, sku)
	return err
}
