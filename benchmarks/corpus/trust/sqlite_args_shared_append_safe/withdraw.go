// Package sqlite_args_shared_append_safe debits wallets on SQLite and
// records an audit row; both statements' argument lists are appended to
// one prefix slice.
package sqlite_args_shared_append_safe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrBad rejects an amount out of range.
var ErrBad = errors.New("bad amount")

// Withdraw debits amt if the balance covers it, then records the debit.
// base has no spare capacity: each append copies, and the debit's guard
// binds amt.
func Withdraw(db *sql.DB, id, amt int64) error {
	if amt <= 0 || amt > 1_000_000 {
		return ErrBad
	}
	base := make([]any, 2)
	base[0], base[1] = amt, id
	debit := append(base, amt)
	audit := append(base, int64(-1))
	if _, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", debit...); err != nil {
		return err
	}
	_, err := db.Exec("INSERT INTO audit (amount, account) VALUES (?, ?)", audit[:2]...)
	return err
}

// Refund takes back a credit of amt; its arguments are copied from a
// template in the statement's order.
func Refund(db *sql.DB, id, amt int64) error {
	if amt <= 0 || amt > 1_000_000 {
		return ErrBad
	}
	tmpl := []any{amt, id, amt}
	args := make([]any, len(tmpl))
	copy(args, tmpl)
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", args...)
	return err
}
