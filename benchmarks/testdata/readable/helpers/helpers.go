// Package helpers checks a withdrawal with a helper that compares the
// wrong way round.
package helpers

import (
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

func validate(balance, amount int64) bool {
	return amount > 0 && balance+amount >= 0 // bug: should be balance >= amount
}

func balanceOf(db *sql.DB, id int64) (int64, error) {
	var bal int64
	err := db.QueryRow("SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal)
	return bal, err
}

// Withdraw debits amount after validate says so.
func Withdraw(db *sql.DB, id, amount int64) error {
	bal, err := balanceOf(db, id)
	if err != nil {
		return err
	}
	if !validate(bal, amount) {
		return errors.New("refused")
	}
	_, err = db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id)
	return err
}
