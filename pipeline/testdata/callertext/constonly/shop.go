// Package constonly reads through an exported generic helper whose SQL
// text its callers pass, each a constant (pipeline's TestCallerSQL; an
// independent tester's generic_get_unknown).
package constonly

import (
	"context"
	"database/sql"
)

// Get loads one value of the row query selects into a T.
func Get[T any](ctx context.Context, db *sql.DB, query string, args ...any) (T, error) {
	var out T
	err := db.QueryRowContext(ctx, query, args...).Scan(&out)
	return out, err
}

// Sell takes n of product id where the stock stays at its minimum.
func Sell(ctx context.Context, db *sql.DB, id, n int64) error {
	if n <= 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE products SET qty = qty - $1 WHERE id = $2 AND qty - $1 >= min_qty`, n, id)
	return err
}

// Stock reads the stock of product id.
func Stock(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	return Get[int64](ctx, db, `SELECT qty FROM products WHERE id = $1`, id)
}

// Minimum reads the minimum stock of product id.
func Minimum(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	return Get[int64](ctx, db, `SELECT min_qty FROM products WHERE id = $1`, id)
}
