// Package pg_price_discount_order_safe is the price list of a shop on PostgreSQL.
//
// Order-dependent handlers (seed 002's message race): SetPrice then
// ApplyDiscount and ApplyDiscount then SetPrice end with different prices, a
// warning of its own, but every interleaving keeps prices non-negative.
package pg_price_discount_order_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadPrice   = errors.New("prices: price must not be negative")
	ErrBadPercent = errors.New("prices: percent must be between 0 and 100")
)

// Prices sets and discounts product prices.
type Prices struct{ db *sql.DB }

func NewPrices(db *sql.DB) *Prices { return &Prices{db: db} }

// SetPrice sets product id's price.
func (p *Prices) SetPrice(ctx context.Context, id, price int64) error {
	if price < 0 {
		return ErrBadPrice
	}
	if _, err := p.db.ExecContext(ctx, "UPDATE products SET price = $1 WHERE id = $2", price, id); err != nil {
		return fmt.Errorf("set price: %w", err)
	}
	return nil
}

// ApplyDiscount lowers product id's price by percent.
func (p *Prices) ApplyDiscount(ctx context.Context, id, percent int64) error {
	if percent < 0 || percent > 100 {
		return ErrBadPercent
	}
	if _, err := p.db.ExecContext(ctx, "UPDATE products SET price = price - price * $1 / 100 WHERE id = $2", percent, id); err != nil {
		return fmt.Errorf("discount: %w", err)
	}
	return nil
}
