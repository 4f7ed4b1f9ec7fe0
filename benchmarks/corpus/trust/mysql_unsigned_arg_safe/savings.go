// Package savings pays out of savings accounts on MySQL. The amount is a
// uint64 and the Go check computes in uint64, so
// it wraps and lets every amount through; but go-sql-driver binds the
// uint64 as BIGINT UNSIGNED, so MySQL computes `balance - ?` unsigned
// and refuses the UPDATE (Error 1690) where the result would be negative.
package savings

import (
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// MinimumKeep is what an account keeps after a payout.
const MinimumKeep = 100

// ErrBelowMinimum is returned when a payout would leave less than MinimumKeep.
var ErrBelowMinimum = errors.New("below the minimum balance")

// Payout takes cents from account id.
func Payout(db *sql.DB, id int64, cents uint64) error {
	if cents == 0 {
		return errors.New("bad amount")
	}
	var bal int64
	if err := db.QueryRow(`SELECT balance FROM savings WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	if uint64(bal)-cents < MinimumKeep { // wraps below zero: passes
		return ErrBelowMinimum
	}
	_, err := db.Exec(`UPDATE savings SET balance = balance - ? WHERE id = ?`, cents, id)
	return err
}
