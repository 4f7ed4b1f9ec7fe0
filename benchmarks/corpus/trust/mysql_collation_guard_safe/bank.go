// Package mysql_collation_guard_safe keeps the savings check in SQL, under
// the column's collation like the constraint: the debit of a savings
// account ('savings', 'SAVINGS', 'savings ') only happens when its balance
// covers the amount.
package mysql_collation_guard_safe

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
	res, err := b.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ?
		WHERE id = ? AND (kind <> 'savings' OR balance >= ?)`, amt, id, amt)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrOverdraft
	}
	return nil
}
