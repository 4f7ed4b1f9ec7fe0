// Package pg_set_order_safe books deposits to savings accounts and keeps
// each account's high-water mark, which the bonus-interest job reads
// (PostgreSQL).
package pg_set_order_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

var ErrInvalidAmount = errors.New("savings: deposit must be positive")

// Postgres evaluates every SET expression on the old row, so the new
// balance is spelled out in the high-water mark.
const depositSQL = `UPDATE savings_accounts
SET balance = balance + $1,
    peak_balance = CASE WHEN balance + $1 > peak_balance THEN balance + $1 ELSE peak_balance END
WHERE id = $2`

// Savings is the savings-account repository.
type Savings struct {
	db *sql.DB
}

func NewSavings(db *sql.DB) *Savings { return &Savings{db: db} }

// Deposit adds amount to accountID.
func (s *Savings) Deposit(ctx context.Context, accountID, amount int64) error {
	if amount <= 0 {
		return ErrInvalidAmount
	}
	_, err := s.db.ExecContext(ctx, depositSQL, amount, accountID)
	return err
}
