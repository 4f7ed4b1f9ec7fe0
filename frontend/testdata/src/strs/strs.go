// Package strs builds SQL text from constants at run time.
package strs

import (
	"database/sql"
	"fmt"
)

const (
	debitChecking = "UPDATE checking SET balance = balance - ? WHERE id = ?"
	debitSavings  = "UPDATE savings SET balance = balance - ? WHERE id = ?"
)

// Debit picks one of two statements.
func Debit(db *sql.DB, savings bool, id, amt int64) error {
	q := debitChecking
	if savings {
		q = debitSavings
	}
	_, err := db.Exec(q, amt, id)
	return err
}

func table(archived bool) string {
	if archived {
		return "archive"
	}
	return "accounts"
}

// Fee formats the table name and the fee into the SQL.
func Fee(db *sql.DB, archived bool, id int64, fee int64) error {
	q := fmt.Sprintf("UPDATE %s SET balance = balance - %d WHERE id = ?", table(archived), fee)
	_, err := db.Exec(q, id)
	return err
}

// Named formats a caller's table name: not known.
func Named(db *sql.DB, name string) error {
	_, err := db.Exec(fmt.Sprintf("DELETE FROM %s", name))
	return err
}
