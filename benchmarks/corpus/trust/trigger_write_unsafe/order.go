// Package trigger_write_unsafe places orders; a trigger in the schema
// (see schema.sql) takes the ordered quantity off the product's stock.
package trigger_write_unsafe

import (
	"context"
	"database/sql"
)

const insertOrder = "INSERT INTO orders (product_id, qty) VALUES ($1, $2)"

// Store is the order repository.
type Store struct{ db *sql.DB }

// Place orders qty units of product.
// BUG: nothing checks the stock before the trigger takes qty from it.
func (s *Store) Place(ctx context.Context, product, qty int64) error {
	_, err := s.db.ExecContext(ctx, insertOrder, product, qty)
	return err
}
