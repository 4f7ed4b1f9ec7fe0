// Package mysql_limit_spend_order_safe is the credit-line store of a card issuer on MySQL.
//
// Order-dependent handlers on MySQL: Spend then SetLimit and SetLimit then
// Spend can end differently (one of them refused), but both are guarded
// UPDATEs whose guard is a current read, so spent never exceeds the limit in
// any interleaving.
package mysql_limit_spend_order_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrBadAmount   = errors.New("credit: amount must be positive")
	ErrOverLimit   = errors.New("credit: over the credit limit")
	ErrLimitTooLow = errors.New("credit: the limit is below what is already spent")
)

// Lines keeps each card's credit limit and what was spent.
type Lines struct{ db *sql.DB }

func NewLines(db *sql.DB) *Lines { return &Lines{db: db} }

// Spend charges amount to card id within its limit.
func (l *Lines) Spend(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	res, err := l.db.ExecContext(ctx, "UPDATE cards SET spent = spent + ? WHERE id = ? AND spent + ? <= credit_limit", amount, id, amount)
	if err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("spend: %w", err)
	} else if n != 1 {
		return ErrOverLimit
	}
	return nil
}

// SetLimit changes card id's credit limit, never below what is spent.
func (l *Lines) SetLimit(ctx context.Context, id, limit int64) error {
	res, err := l.db.ExecContext(ctx, "UPDATE cards SET credit_limit = ? WHERE id = ? AND spent <= ?", limit, id, limit)
	if err != nil {
		return fmt.Errorf("set limit: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("set limit: %w", err)
	} else if n != 1 {
		return ErrLimitTooLow
	}
	return nil
}
