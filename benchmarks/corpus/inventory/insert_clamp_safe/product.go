// Package insert_clamp_safe registers new products in the warehouse.
package insert_clamp_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInvalidCapacity = errors.New("inventory: bin capacity must be positive")

const insertProduct = "INSERT INTO products (id, stock, capacity) VALUES (?, ?, ?)"

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// AddProduct registers product id with a bin of the given capacity and the
// initial stock from the import file, clamped into the bin's range.
func (s *Store) AddProduct(ctx context.Context, id, capacity, initial int64) error {
	if capacity <= 0 {
		return ErrInvalidCapacity
	}
	stock := initial
	if stock < 0 {
		stock = 0
	}
	if stock > capacity {
		stock = capacity
	}
	_, err := s.db.ExecContext(ctx, insertProduct, id, stock, capacity)
	return err
}
