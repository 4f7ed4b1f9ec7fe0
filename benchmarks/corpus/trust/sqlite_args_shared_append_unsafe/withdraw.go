// Package sqlite_args_shared_append_unsafe debits wallets on SQLite and
// records an audit row; both statements' argument lists are appended to
// one prefix slice.
package sqlite_args_shared_append_unsafe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrBad rejects an amount out of range.
var ErrBad = errors.New("bad amount")

// Withdraw debits amt if the balance covers it, then records the debit.
// BUG: base has room for a third element, so both appends write into its
// array: the audit's -1 overwrites the debit's guard amount, and the
// debit runs with balance >= -1.
func Withdraw(db *sql.DB, id, amt int64) error {
	if amt <= 0 || amt > 1_000_000 {
		return ErrBad
	}
	base := make([]any, 2, 3)
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
// template.
// BUG: the template lists the key first, so the amount bound is the id
// (and the key the amount).
func Refund(db *sql.DB, id, amt int64) error {
	if amt <= 0 || amt > 1_000_000 {
		return ErrBad
	}
	tmpl := []any{id, amt, amt}
	args := make([]any, len(tmpl))
	copy(args, tmpl)
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", args...)
	return err
}
