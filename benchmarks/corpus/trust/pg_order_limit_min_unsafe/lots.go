// Package pg_order_limit_min_unsafe takes one unit from every lot of a
// product when its largest lot holds one (it should check the smallest).
package pg_order_limit_min_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Store is the warehouse repository.
type Store struct{ db *sql.DB }

// Sample takes one unit from every lot of sku for quality control. Bug:
// ORDER BY … DESC LIMIT 1 read returns the largest lot: a smaller lot
// of the product may be empty and goes to -1.
func (s *Store) Sample(ctx context.Context, sku string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var smallest int64
	err = tx.QueryRowContext(ctx, "SELECT qty FROM lots WHERE sku = $1 ORDER BY qty DESC LIMIT 1", sku).Scan(&smallest)
	if err != nil {
		return err
	}
	if smallest < 1 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE lots SET qty = qty - 1 WHERE sku = $1", sku); err != nil {
		return err
	}
	return tx.Commit()
}
