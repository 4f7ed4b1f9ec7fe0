// Package atm_unsafe is the ATM withdrawal of Jana, Alam and Halder, "A
// Symbolic Model Checker for Database Programs" (§3), ported to Go.
package atm_unsafe

import (
	"database/sql"
	"errors"
)

const (
	selectBalance = "SELECT balance FROM Account WHERE Accno = ?"
	debitBalance  = "UPDATE Account SET balance = balance - ? WHERE Accno = ?"
)

// ErrMinBalance is returned when a withdrawal would leave less than the
// minimum balance on the account.
var ErrMinBalance = errors.New("atm: minimum balance of 1000 must be kept")

// Withdraw pays out amt from account accNo. At most 10000 may be withdrawn
// per transaction and the account must keep a balance of at least 1000.
func Withdraw(db *sql.DB, accNo int, amt int) error {
	minbal := 1000
	var bal int
	if err := db.QueryRow(selectBalance, accNo).Scan(&bal); err != nil {
		return err
	}
	if amt <= 10000 { // maximum withdrawal amount
		if bal >= minbal {
			if _, err := db.Exec(debitBalance, amt, accNo); err != nil {
				return err
			}
			// ... do some work ...
		} else {
			return ErrMinBalance
		}
	}
	if err := db.QueryRow(selectBalance, accNo).Scan(&bal); err != nil {
		return err
	}
	display(bal)
	return nil
}

// display shows the balance on the ATM screen; the screen driver is not
// part of this port.
func display(bal int) { _ = bal }
