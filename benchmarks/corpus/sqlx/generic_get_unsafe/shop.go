// Package generic_get_unsafe reads products through an exported generic
// helper whose SQL text its callers pass, each a constant, and sells
// without checking the minimum stock.
package generic_get_unsafe

import (
	"context"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
)

type Product struct {
	ID     int64 `db:"id"`
	Qty    int64 `db:"qty"`
	MinQty int64 `db:"min_qty"`
}

// Get loads one row into a T (a read helper).
func Get[T any](ctx context.Context, q sqlx.QueryerContext, query string, args ...any) (T, error) {
	var out T
	err := sqlx.GetContext(ctx, q, &out, query, args...)
	return out, err
}

// Sell takes n of product id, checking only that some stock is left.
func Sell(ctx context.Context, db *sqlx.DB, id, n int64) error {
	if n <= 0 || n > 1000 {
		return nil
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	p, err := Get[Product](ctx, tx, "SELECT id, qty, min_qty FROM products WHERE id = ? FOR UPDATE", id)
	if err != nil {
		return err
	}
	if p.Qty <= 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET qty = qty - ? WHERE id = ?", n, id); err != nil {
		return err
	}
	return tx.Commit()
}
