// Package good is a well-formed program with one SAFE and one UNSAFE entry
// point for accounts.balance >= 0; the command-line error tests run against
// it.
package good

import "database/sql"

// Deposit credits amt to account id; only positive amounts are accepted.
func Deposit(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amt, id)
	return err
}

// Withdraw debits amt from account id without checking the balance.
func Withdraw(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}
