// Package mysql_collation_guard_unsafe protects savings accounts with a Go
// check kind == "savings". MySQL's default collation compares 'SAVINGS' and
// 'savings ' equal to 'savings' (the constraint's kind <> 'savings' is
// false for them), Go does not: such an account is debited below zero.
package mysql_collation_guard_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Bank is the account store.
type Bank struct{ DB *sql.DB }

// ErrOverdraft refuses to take a savings account below zero.
var ErrOverdraft = errors.New("bank: savings accounts cannot go below zero")

// Withdraw debits amt from account id; savings accounts must stay covered.
func (b *Bank) Withdraw(ctx context.Context, id, amt int64) error {
	var kind string
	var bal int64
	if err := b.DB.QueryRowContext(ctx, `SELECT kind, balance FROM accounts WHERE id = ?`, id).Scan(&kind, &bal); err != nil {
		return err
	}
	if kind == "savings" && bal < amt {
		return ErrOverdraft
	}
	_, err := b.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id)
	return err
}
