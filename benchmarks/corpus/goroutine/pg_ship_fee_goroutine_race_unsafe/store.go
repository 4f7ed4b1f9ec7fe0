// Package pg_ship_fee_goroutine_race_unsafe ships an order on PostgreSQL:
// the handler checks the stock, takes the order's quantity in a
// goroutine, and takes one more unit for the packaging sample itself.
//
// Run with the goroutine first (at its go statement), the guarded sample
// UPDATE finds no unit left when the order took the last ones: no
// violation. But the goroutine races the handler: with the handler's
// sample UPDATE first (the usual schedule: a new goroutine rarely runs
// before its spawner's next statement), stock 5 and an order of 5 end at
// -1. The two UPDATEs write the same cells, so dbverify does not keep the
// go-statement order and names both statements.
package pg_ship_fee_goroutine_race_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var ErrOutOfStock = errors.New("shipping: out of stock")

// Shipping ships orders.
type Shipping struct{ db *sql.DB }

func NewShipping(db *sql.DB) *Shipping { return &Shipping{db: db} }

// Ship takes qty units of product id for an order, and one sample unit.
func (s *Shipping) Ship(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return fmt.Errorf("ship: quantity %d must be positive", qty)
	}
	var stock int64
	if err := s.db.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return fmt.Errorf("ship: %w", err)
	}
	if stock < qty {
		return ErrOutOfStock
	}
	go func() {
		if _, err := s.db.ExecContext(context.WithoutCancel(ctx), "UPDATE products SET stock = stock - $1 WHERE id = $2", qty, id); err != nil {
			log.Printf("ship %d of product %d: %v", qty, id, err)
		}
	}()
	if _, err := s.db.ExecContext(ctx, "UPDATE products SET stock = stock - 1 WHERE id = $1 AND stock >= 1", id); err != nil {
		return fmt.Errorf("ship: sample: %w", err)
	}
	return nil
}
