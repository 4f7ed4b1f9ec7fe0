// Package pg_goroutine_reserve_guarded_safe reserves the lines of an order on PostgreSQL, one
// goroutine per line.
//
// The parallel reservation with each line a guarded UPDATE (WHERE stock >=
// qty) whose RowsAffected is checked: the goroutines race, but the guard is
// decided in SQL on the latest row.
package pg_goroutine_reserve_guarded_safe

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
	res, err := s.db.ExecContext(ctx, "UPDATE products SET stock = stock - $1 WHERE id = $2 AND stock >= $1", qty, itemID)
	if err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("reserve: %w", err)
	} else if n != 1 {
		return ErrOutOfStock
	}
	return nil
}
