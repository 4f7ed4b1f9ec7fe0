// Package ignorenoreason suppresses a result without saying why, which
// is a usage error.
package ignorenoreason

import "database/sql"

// Withdraw debits amt without reading the balance.
func Withdraw(db *sql.DB, id, amt int64) error {
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id) //dbverify:ignore DBV001
	return err
}
