// Package pg_goroutine_reserve_unsafe reserves the lines of an order on PostgreSQL, one
// goroutine per line.
//
// A goroutine that writes: ReserveLines reserves two order lines of the same
// item in parallel goroutines, each a plain check of the stock then a
// relative UPDATE. Inside one request the two goroutines race like two
// requests: both read stock 10, both take 10, stock -10.
package pg_goroutine_reserve_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadQuantity = errors.New("orders: quantity must be positive")
	ErrOutOfStock  = errors.New("orders: out of stock")
)

// Orders reserves stock for orders.
type Orders struct{ db *sql.DB }

func NewOrders(db *sql.DB) *Orders { return &Orders{db: db} }

// ReserveLines reserves two order lines of item itemID in parallel.
func (s *Orders) ReserveLines(ctx context.Context, itemID, firstQty, secondQty int64) error {
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, qty := range []int64{firstQty, secondQty} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.reserve(ctx, itemID, qty)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// reserve takes qty units of item itemID out of stock.
func (s *Orders) reserve(ctx context.Context, itemID, qty int64) error {
	if qty <= 0 {
		return ErrBadQuantity
	}
	var stock int64
	if err := s.db.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", itemID).Scan(&stock); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	if stock < qty {
		return ErrOutOfStock
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE products SET stock = stock - $1 WHERE id = $2", qty, itemID); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	return nil
}
