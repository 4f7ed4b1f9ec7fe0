// Package ignored has an UNSAFE entry point whose result the team has
// reviewed and suppressed with a reason, and a directive that suppresses
// nothing.
package ignored

import "database/sql"

// Withdraw debits amt without reading the balance: overdrafts are
// settled by the nightly job.
//
//dbverify:ignore DBV001 overdrafts are allowed and settled by the nightly job
func Withdraw(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}

// Deposit credits a positive amount.
func Deposit(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	//dbverify:ignore accounts.balance the deposit is positive, nothing to suppress here
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amt, id)
	return err
}
