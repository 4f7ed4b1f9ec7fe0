// Package reserve_unsafe reserves stock for a cart item.
package reserve_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidQuantity = errors.New("inventory: quantity must be positive")
	ErrOutOfStock      = errors.New("inventory: out of stock")
)

const (
	selectStock       = "SELECT stock FROM products WHERE id = ?"
	takeStock         = "UPDATE products SET stock = stock - ? WHERE id = ?"
	insertReservation = "INSERT INTO reservations (cart_id, product_id, qty) VALUES (?, ?, ?)"
)

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// Reserve holds qty units of productID for cartID.
func (s *Store) Reserve(ctx context.Context, cartID, productID, qty int64) error {
	if qty <= 0 {
		return ErrInvalidQuantity
	}
	var stock int64
	if err := s.db.QueryRowContext(ctx, selectStock, productID).Scan(&stock); err != nil {
		return err
	}
	if stock <= 0 {
		return ErrOutOfStock
	}
	if _, err := s.db.ExecContext(ctx, takeStock, qty, productID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, insertReservation, cartID, productID, qty)
	return err
}
