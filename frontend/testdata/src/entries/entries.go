// Package entries has two entry points; the helpers they call are not
// entries, and a read-only function is not one either.
package entries

import (
	"database/sql"
	"errors"
)

var ErrInvalid = errors.New("invalid amount")

type Store struct{ db *sql.DB }

func check(amt int64) error {
	if amt <= 0 {
		return ErrInvalid
	}
	return nil
}

func (s *Store) debit(id, amt int64) error {
	_, err := s.db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", amt, id, amt)
	return err
}

// Withdraw is an entry point (pointer receiver).
func (s *Store) Withdraw(id, amt int64) error {
	if err := check(amt); err != nil {
		return err
	}
	return s.debit(id, amt)
}

// Deposit is an entry point (plain function) using a closure.
func Deposit(db *sql.DB, id, amt int64) error {
	apply := func() error {
		_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amt, id)
		return err
	}
	if amt <= 0 {
		return ErrInvalid
	}
	return apply()
}

// Balance only reads.
func Balance(db *sql.DB, id int64) (int64, error) {
	var b int64
	err := db.QueryRow("SELECT balance FROM accounts WHERE id = ?", id).Scan(&b)
	return b, err
}

// Audit writes another table only.
func Audit(db *sql.DB, id int64) error {
	_, err := db.Exec("INSERT INTO audit (account_id) VALUES (?)", id)
	return err
}
