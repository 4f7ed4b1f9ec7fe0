// Package prepared debits through a prepared statement without a check.
package prepared

import (
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Withdraw debits amount.
func Withdraw(db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return nil
	}
	stmt, err := db.Prepare("UPDATE accounts SET balance = balance - ? WHERE id = ?")
	if err != nil {
		return err
	}
	defer stmt.Close()
	_, err = stmt.Exec(amount, id)
	return err
}
