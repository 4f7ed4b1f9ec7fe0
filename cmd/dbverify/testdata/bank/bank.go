// Package bank is the program of the text-output golden tests: one SAFE,
// one UNSAFE and one UNKNOWN entry point for accounts.balance >= 0.
package bank

import (
	"database/sql"
	"errors"
	"fmt"
)

var ErrFunds = errors.New("insufficient funds")

// Deposit credits a positive amount.
func Deposit(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amt, id)
	return err
}

// Withdraw checks the balance but debits the fee on top of the amount.
func Withdraw(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	var bal int64
	if err := db.QueryRow("SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amt {
		return ErrFunds
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? - 1 WHERE id = ?", amt, id)
	return err
}

// Adjust runs SQL built at run time.
func Adjust(db *sql.DB, column string, id int64) error {
	_, err := db.Exec(fmt.Sprintf("UPDATE accounts SET %s = 0 WHERE id = ?", column), id)
	return err
}
