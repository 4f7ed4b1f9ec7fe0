// Package pg_char_padded_safe keeps the savings check in SQL, where the
// CHAR(10) padding does not matter: the debit of a savings account only
// happens when its balance covers the amount.
package pg_char_padded_safe

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
	res, err := b.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1
		WHERE id = $2 AND (kind <> 'savings' OR balance >= $1)`, amt, id)
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
