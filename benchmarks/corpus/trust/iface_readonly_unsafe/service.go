// Package shop sells stock (PostgreSQL through pgx's database/sql driver).
// Stock levels are read through a read-only repository interface; the
// service writes with its own handle.
package shop

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// StockReader reads stock levels.
type StockReader interface {
	Stock(ctx context.Context, productID int64) (int64, error)
}

type pgStock struct{ db *sql.DB }

// NewStockReader returns a StockReader over db.
func NewStockReader(db *sql.DB) StockReader { return &pgStock{db: db} }

func (p *pgStock) Stock(ctx context.Context, productID int64) (int64, error) {
	var n int64
	err := p.db.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", productID).Scan(&n)
	return n, err
}

// ErrOutOfStock is returned when an order exceeds the stock.
var ErrOutOfStock = errors.New("out of stock")

// Orders takes orders.
type Orders struct {
	db    *sql.DB
	stock StockReader
}

// Place reserves qty units of a product.
func (o *Orders) Place(ctx context.Context, productID, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	have, err := o.stock.Stock(ctx, productID)
	if err != nil {
		return err
	}
	// BUG: refuses only products that are sold out, not orders larger than the stock.
	if have <= 0 {
		return ErrOutOfStock
	}
	_, err = o.db.ExecContext(ctx, "UPDATE products SET stock = stock - $1 WHERE id = $2", qty, productID)
	return err
}
