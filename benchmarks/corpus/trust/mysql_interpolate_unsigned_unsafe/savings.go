// Package savings pays out of savings accounts on MySQL. The amount is a
// uint64 and the Go check computes in uint64, so it wraps and lets every
// amount through. The uint64 is bound as it is, but the program connects
// with interpolateParams=true: go-sql-driver writes the number into the
// SQL text, MySQL computes `balance - 1` signed and writes a negative
// balance (without interpolation it refuses, Error 1690).
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

// Open connects with client-side interpolation: one round trip per
// statement instead of prepare, execute and close.
func Open(host string) (*sql.DB, error) {
	return sql.Open("mysql", "bank:bank@tcp("+host+")/bank?interpolateParams=true&parseTime=true")
}

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
