// Package mysql_quoted_stock_safe is the kit-assembly store of a workshop
// service on MySQL. The kit size lives in the SQL as a quoted literal, as
// the statement was first written for a settings table of strings.
package mysql_quoted_stock_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

// ErrShortage means the part does not have a whole kit in stock.
var ErrShortage = errors.New("kits: not enough parts for a kit")

// Parts takes parts out of stock to assemble kits.
type Parts struct{ db *sql.DB }

func NewParts(db *sql.DB) *Parts { return &Parts{db: db} }

// TakeKit removes one kit ('5' parts) of sku from stock, if there are five.
func (p *Parts) TakeKit(ctx context.Context, sku string) error {
	res, err := p.db.ExecContext(ctx,
		"UPDATE parts SET stock = stock - '5' WHERE sku = ? AND stock >= '5'", sku)
	if err != nil {
		return fmt.Errorf("take kit %s: %w", sku, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("take kit %s: %w", sku, err)
	}
	if n == 0 {
		return ErrShortage
	}
	return nil
}
