// Package credit_line_no_infer_key_schema_safe draws money from customers' credit
// lines (MySQL).
package credit_line_no_infer_key_schema_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrInvalidAmount = errors.New("credit: amount must be positive")
	ErrUnknownLine   = errors.New("credit: unknown credit line")
	ErrLimitExceeded = errors.New("credit: credit limit exceeded")
)

const (
	lockLineSQL    = "SELECT `credit_limit`, `drawn` FROM `credit_lines` WHERE `id` = ? FOR UPDATE"
	drawSQL        = "UPDATE `credit_lines` SET `drawn` = `drawn` + ? WHERE `id` = ?"
	insertDrawdown = "INSERT INTO `drawdowns` SET `credit_line_id` = ?, `amount` = ?, `created_at` = NOW()"
)

// CreditLines is the credit-line repository.
type CreditLines struct {
	db *sql.DB
}

func NewCreditLines(db *sql.DB) *CreditLines { return &CreditLines{db: db} }

// Draw draws amount from credit line lineID, within its limit, and returns
// the id of the drawdown.
func (c *CreditLines) Draw(ctx context.Context, lineID, amount int64) (int64, error) {
	if amount <= 0 {
		return 0, ErrInvalidAmount
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var limit, drawn int64
	err = tx.QueryRowContext(ctx, lockLineSQL, lineID).Scan(&limit, &drawn)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrUnknownLine
	}
	if err != nil {
		return 0, fmt.Errorf("credit: lock line %d: %w", lineID, err)
	}
	if drawn+amount > limit {
		return 0, ErrLimitExceeded
	}
	if _, err := tx.ExecContext(ctx, drawSQL, amount, lineID); err != nil {
		return 0, fmt.Errorf("credit: draw: %w", err)
	}
	res, err := tx.ExecContext(ctx, insertDrawdown, lineID, amount)
	if err != nil {
		return 0, fmt.Errorf("credit: record drawdown: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	return id, tx.Commit()
}
