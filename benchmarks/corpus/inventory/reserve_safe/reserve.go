// Package reserve_safe reserves stock for the lines of an order.
package reserve_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var (
	ErrInvalidQuantity = errors.New("inventory: quantity must be positive")
	ErrOutOfStock      = errors.New("inventory: out of stock")
)

const (
	lockStock         = "SELECT stock FROM products WHERE id = ? FOR UPDATE"
	takeStock         = "UPDATE products SET stock = stock - ? WHERE id = ?"
	insertReservation = "INSERT INTO reservations (order_id, product_id, qty) VALUES (?, ?, ?)"
)

// Item is one order line.
type Item struct {
	ProductID int64
	Qty       int64
}

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// ReserveOrder reserves every line of order orderID, or none of them.
func (s *Store) ReserveOrder(ctx context.Context, orderID int64, items []Item) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, it := range items {
		if it.Qty <= 0 {
			return ErrInvalidQuantity
		}
		var stock int64
		if err := tx.QueryRowContext(ctx, lockStock, it.ProductID).Scan(&stock); err != nil {
			return fmt.Errorf("product %d: %w", it.ProductID, err)
		}
		if stock < it.Qty {
			return fmt.Errorf("product %d: %w", it.ProductID, ErrOutOfStock)
		}
		if _, err := tx.ExecContext(ctx, takeStock, it.Qty, it.ProductID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, insertReservation, orderID, it.ProductID, it.Qty); err != nil {
			return err
		}
	}
	return tx.Commit()
}
