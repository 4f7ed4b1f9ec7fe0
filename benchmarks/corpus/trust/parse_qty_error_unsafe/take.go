// Package parse_qty_error_unsafe takes stock for a pick list whose
// quantities arrive as text.
package parse_qty_error_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"strconv"

	_ "github.com/lib/pq"
)

var ErrInvalidQty = errors.New("inventory: invalid quantity")

// Store is the inventory repository.
type Store struct{ db *sql.DB }

// Take removes qtyText items of item id from stock.
func (s *Store) Take(ctx context.Context, id int64, qtyText string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM items WHERE id = $1 FOR UPDATE", id).Scan(&stock); err != nil {
		return err
	}
	qty, err := strconv.ParseInt(qtyText, 10, 64)
	if err != nil {
		// A malformed quantity takes nothing: ParseInt returns 0 for it.
		// BUG: not for a number out of range, where it returns MaxInt64.
		log.Printf("take %d: bad quantity %q: %v", id, qtyText, err)
	} else if qty <= 0 || qty > stock {
		return ErrInvalidQty
	}
	if _, err := tx.ExecContext(ctx, "UPDATE items SET stock = stock - $1 WHERE id = $2", qty, id); err != nil {
		return err
	}
	return tx.Commit()
}
