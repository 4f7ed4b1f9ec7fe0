// Package capacity_unsafe tracks the stock of warehouse bins, each holding at
// most capacity units.
package capacity_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidQuantity = errors.New("inventory: quantity must be positive")
	ErrRejected        = errors.New("inventory: bin full, empty or unknown")
)

const (
	receiveStock = "UPDATE products SET stock = stock + ? WHERE id = ? AND stock + ? <= capacity"
	shipStock    = "UPDATE products SET stock = stock - ? WHERE id = ? AND stock >= ?"
	setCapacity  = "UPDATE products SET capacity = ? WHERE id = ?"
)

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// Receive puts qty units into the bin of product id if they fit.
func (s *Store) Receive(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return ErrInvalidQuantity
	}
	return checked(s.db.ExecContext(ctx, receiveStock, qty, id, qty))
}

// Ship takes qty units out of the bin of product id.
func (s *Store) Ship(ctx context.Context, id, qty int64) error {
	if qty == 0 {
		return nil
	}
	return checked(s.db.ExecContext(ctx, shipStock, qty, id, qty))
}

// SetCapacity resizes the bin of product id.
func (s *Store) SetCapacity(ctx context.Context, id, capacity int64) error {
	if capacity < 0 {
		return ErrInvalidQuantity
	}
	return checked(s.db.ExecContext(ctx, setCapacity, capacity, id))
}

// checked turns "no row changed" into ErrRejected.
func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrRejected
	}
	return nil
}
