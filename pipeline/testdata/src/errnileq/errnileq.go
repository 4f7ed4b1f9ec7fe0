// Package errnileq compares two error values that may both be nil.
package errnileq

import (
	"database/sql"
	"errors"
)

func check(amount int64) error {
	if amount > 1<<62 {
		return errors.New("too much")
	}
	return nil
}

// Debit takes amount, without looking at the balance, when check's
// verdict equals the caller's last one: both nil, the usual case.
func Debit(db *sql.DB, id, amount int64, last error) error {
	if amount > 100 {
		return errors.New("limit")
	}
	err := check(amount)
	if err == last {
		_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id)
		return err
	}
	return nil
}
