// Package read_error_fallback_unsafe debits an account on PostgreSQL
// after reading its balance. A missing account (sql.ErrNoRows) is
// refused, a short balance too; but on any other error of the read (a
// timeout, a lost connection) the debit goes ahead unchecked, which can
// leave the balance negative. The counterexample's read fails with a
// server error, not "no row": a replay must fail it the same way.
package read_error_fallback_unsafe

import (
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// ErrNoAccount is returned for an account that does not exist.
var ErrNoAccount = errors.New("no such account")

// ErrInsufficient is returned when the balance is short.
var ErrInsufficient = errors.New("insufficient funds")

// Debit takes amt from account id.
func Debit(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return errors.New("bad amount")
	}
	var bal int64
	err := db.QueryRow(`SELECT balance FROM accounts WHERE id = $1`, id).Scan(&bal)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return ErrNoAccount
	case err == nil && bal < amt:
		return ErrInsufficient
	}
	_, err = db.Exec(`UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amt, id)
	return err
}
