// Package assume_reserved_unsafe ships reserved stock to customers
// (PostgreSQL). Units are reserved when an order is placed and leave both
// the stock and the reservation when the parcel is handed to the carrier.
package assume_reserved_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

var (
	ErrInvalidQuantity = errors.New("shipping: quantity must be positive")
	ErrNotReserved     = errors.New("shipping: quantity exceeds the reservation")
)

const shipSQL = `UPDATE inventory_items
SET stock = stock - $1, reserved = reserved - $1
WHERE id = $2 AND reserved >= $1
RETURNING stock`

// Shipping hands parcels to carriers.
type Shipping struct {
	db *sql.DB
}

func NewShipping(db *sql.DB) *Shipping { return &Shipping{db: db} }

// Ship takes qty reserved units of itemID out of the warehouse and returns
// the stock left. Since reserved <= stock for every item, shipping at most
// the reserved quantity cannot take the stock below zero.
func (s *Shipping) Ship(ctx context.Context, itemID, qty int64) (int64, error) {
	if qty <= 0 {
		return 0, ErrInvalidQuantity
	}
	var left int64
	err := s.db.QueryRowContext(ctx, shipSQL, qty, itemID).Scan(&left)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotReserved
	}
	if err != nil {
		return 0, fmt.Errorf("shipping: item %d: %w", itemID, err)
	}
	return left, nil
}
