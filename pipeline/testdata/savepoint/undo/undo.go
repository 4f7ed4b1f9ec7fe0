// Package undo debits under a savepoint and rolls back to it when the
// debit overdraws the account: SAFE.
package undo

import "database/sql"

// Debit takes amount from account id unless that overdraws it.
func Debit(db *sql.DB, id, amount int64) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("SAVEPOINT debit"); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		return err
	}
	var bal int64
	if err := tx.QueryRow("SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal); err != nil {
		return err
	}
	if bal < 0 {
		if _, err := tx.Exec("ROLLBACK TO SAVEPOINT debit"); err != nil {
			return err
		}
	}
	return tx.Commit()
}
