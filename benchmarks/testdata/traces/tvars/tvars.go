// Package tvars names its locals as tutorials do (t1, t2), like the SSA
// temporaries a trace hides.
package tvars

import (
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Withdraw debits twice the amount (a fee) without checking the balance.
func Withdraw(db *sql.DB, id int64, amount int64) error {
	if amount <= 0 {
		return nil
	}
	t1 := amount * 2
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", t1, id)
	return err
}
