// Package dialecthelper hands its Postgres SQL to a small exec helper:
// no database call has constant SQL, the helper's callers do.
package dialecthelper

import (
	"context"
	"database/sql"
	"errors"
)

type baseRepo struct{ db *sql.DB }

func (b *baseRepo) execOne(ctx context.Context, q string, args ...any) error {
	res, err := b.db.ExecContext(ctx, q, args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("no row changed")
	}
	return nil
}

// StockRepo changes stock through the helper.
type StockRepo struct{ baseRepo }

// Consume takes qty units of a product's stock when it has them.
func (s *StockRepo) Consume(ctx context.Context, id, qty int64) error {
	return s.execOne(ctx, `UPDATE products SET stock = stock - $1 WHERE id = $2 AND stock >= $1`, qty, id)
}
