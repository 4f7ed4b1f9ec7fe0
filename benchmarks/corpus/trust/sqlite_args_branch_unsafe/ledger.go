// Package sqlite_args_branch_unsafe adjusts wallet balances on SQLite. The
// statement's arguments are collected in a []any first, and a chargeback
// rewrites some of them under an if, but not the guard's.
package sqlite_args_branch_unsafe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrBad rejects an amount out of range.
var ErrBad = errors.New("bad amount")

const adjustSQL = "UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance + ? >= 0"

// Adjust credits amt, or takes it back for a chargeback.
// BUG: the chargeback negates the amount added but not the one the guard
// checks: balance 0 charged back 5 is -5.
func Adjust(db *sql.DB, id, amt int64, chargeback bool) error {
	if amt <= 0 || amt > 1_000_000 {
		return ErrBad
	}
	args := []any{amt, id, amt}
	if chargeback {
		args[0] = -amt
	}
	_, err := db.Exec(adjustSQL, args...)
	return err
}

// Settle credits amt once, then takes it back on later rounds.
// BUG: the rounds after the first bind -amt with the guard on +amt: three
// rounds from balance 0 leave -amt.
func Settle(db *sql.DB, id, amt int64, rounds int) error {
	if amt <= 0 || amt > 1_000_000 {
		return ErrBad
	}
	args := []any{amt, id, amt}
	for i := 0; i < rounds && i < 4; i++ {
		if _, err := db.Exec(adjustSQL, args...); err != nil {
			return err
		}
		args[0] = -amt
	}
	return nil
}
