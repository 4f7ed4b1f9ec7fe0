// Package dynamic is constonly with a caller that passes Get a text it
// builds (pipeline's TestCallerSQL).
package dynamic

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

// Column reads column col of product id.
func Column(ctx context.Context, db *sql.DB, col string, id int64) (int64, error) {
	return Get[int64](ctx, db, `SELECT `+col+` FROM products WHERE id = $1`, id)
}
