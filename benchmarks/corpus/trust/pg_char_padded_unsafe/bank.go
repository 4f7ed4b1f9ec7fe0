// Package pg_char_padded_unsafe protects savings accounts with a Go check
// on a CHAR(10) column: PostgreSQL sends the value padded with blanks
// ("savings   "), so kind == "savings" is never true and no savings account
// is protected, while SQL's kind <> 'savings' (the constraint) ignores the
// padding.
package pg_char_padded_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// Bank is the account store.
type Bank struct{ DB *sql.DB }

// ErrOverdraft refuses to take a savings account below zero.
var ErrOverdraft = errors.New("bank: savings accounts cannot go below zero")

// Withdraw debits amt from account id; savings accounts must stay covered.
func (b *Bank) Withdraw(ctx context.Context, id, amt int64) error {
	var kind string
	var bal int64
	if err := b.DB.QueryRowContext(ctx, `SELECT kind, balance FROM accounts WHERE id = $1`, id).Scan(&kind, &bal); err != nil {
		return err
	}
	if kind == "savings" && bal < amt {
		return ErrOverdraft
	}
	_, err := b.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amt, id)
	return err
}
