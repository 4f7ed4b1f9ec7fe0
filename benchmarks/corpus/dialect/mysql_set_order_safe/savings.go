// Package mysql_set_order_safe books deposits to savings accounts and keeps
// each account's high-water mark, which the bonus-interest job reads
// (MySQL).
package mysql_set_order_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

var ErrInvalidAmount = errors.New("savings: deposit must be positive")

// MySQL evaluates single-table SET assignments left to right: the CASE
// sees the balance after the deposit.
const depositSQL = "UPDATE `savings_accounts` " +
	"SET `balance` = `balance` + ?, " +
	"`peak_balance` = CASE WHEN `balance` > `peak_balance` THEN `balance` ELSE `peak_balance` END " +
	"WHERE `id` = ?"

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
