// Package nocompile does not type-check: Withdraw assigns a string to an
// int64. dbverify must exit 2 and name the file and line.
package nocompile

import "database/sql"

// Withdraw debits amt from account id.
func Withdraw(db *sql.DB, id, amt int64) error {
	var limit int64 = "ten thousand"
	if amt > limit {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}
