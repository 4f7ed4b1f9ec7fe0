// Package sqlite_args_branch_safe adjusts wallet balances on SQLite. The
// statement's arguments are collected in a []any first, and a chargeback
// rewrites some of them under an if: every path binds the amount it
// checks.
package sqlite_args_branch_safe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrBad rejects an amount out of range.
var ErrBad = errors.New("bad amount")

const adjustSQL = "UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance + ? >= 0"

// Adjust credits amt, or takes it back for a chargeback: the guard reads
// the same signed amount the SET adds.
func Adjust(db *sql.DB, id, amt int64, chargeback bool) error {
	if amt <= 0 || amt > 1_000_000 {
		return ErrBad
	}
	args := []any{amt, id, amt}
	if chargeback {
		args[0] = -amt
		args[2] = -amt
	}
	_, err := db.Exec(adjustSQL, args...)
	return err
}

// Settle credits amt once, then takes it back on later rounds: each
// round binds the amount its guard checks.
func Settle(db *sql.DB, id, amt int64, rounds int) error {
	if amt <= 0 || amt > 1_000_000 {
		return ErrBad
	}
	args := []any{amt, id, amt}
	for i := 0; i < rounds && i < 4; i++ {
		if _, err := db.Exec(adjustSQL, args...); err != nil {
			return err
		}
		args[0], args[2] = -amt, -amt
	}
	return nil
}
