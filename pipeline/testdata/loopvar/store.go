// Package loopvar starts goroutines that capture a range variable of
// struct type (pipeline's TestLoopVarGoroutines). With go >= 1.22 in
// go.mod each iteration has its own variable, written before the
// goroutine starts and never after.
package loopvar

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"sync"
)

var ErrStock = errors.New("out of stock")

type Line struct{ ProductID, Qty int64 }

type Store struct{ db *sql.DB }

// reserve takes qty off the stock of product id where it covers it.
func (s *Store) reserve(ctx context.Context, l Line) error {
	res, err := s.db.ExecContext(ctx, "UPDATE products SET stock = stock - $1 WHERE id = $2 AND stock >= $1", l.Qty, l.ProductID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrStock
	}
	return nil
}

// ReserveOne reserves the line of product id in a goroutine: SAFE, the
// goroutine reads its own l.
func (s *Store) ReserveOne(ctx context.Context, lines []Line, id int64) error {
	var wg sync.WaitGroup
	for _, l := range lines {
		if l.ProductID != id || l.Qty <= 0 {
			continue
		}
		wg.Go(func() { _ = s.reserve(ctx, l) })
		break
	}
	wg.Wait()
	return nil
}

// TakeOne takes the line of product id in a goroutine without a check:
// UNSAFE.
func (s *Store) TakeOne(ctx context.Context, lines []Line, id int64) error {
	var wg sync.WaitGroup
	for _, l := range lines {
		if l.ProductID != id {
			continue
		}
		wg.Go(func() {
			_, _ = s.db.ExecContext(ctx, "UPDATE products SET stock = stock - $1 WHERE id = $2", l.Qty, l.ProductID)
		})
		break
	}
	wg.Wait()
	return nil
}

// LogLines reserves every line, then logs each in its own goroutine:
// SAFE, each goroutine reads its own l.
func (s *Store) LogLines(ctx context.Context, lines []Line) error {
	for _, l := range lines {
		if l.Qty <= 0 {
			return ErrStock
		}
		if err := s.reserve(ctx, l); err != nil {
			return err
		}
	}
	for _, l := range lines {
		go func() { log.Printf("reserved %d of %d", l.Qty, l.ProductID) }()
	}
	return nil
}

// ReserveAll reserves every line in its own goroutine: UNKNOWN, the
// goroutines' UPDATEs touch the same cells (not their memory: each has
// its own l).
func (s *Store) ReserveAll(ctx context.Context, lines []Line) error {
	var wg sync.WaitGroup
	for _, l := range lines {
		wg.Go(func() { _ = s.reserve(ctx, l) })
	}
	wg.Wait()
	return nil
}
