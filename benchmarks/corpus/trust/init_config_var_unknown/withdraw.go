// Package init_config_var_unknown debits accounts down to a floor the
// deployment sets in the environment (MIN_BALANCE), read once when the
// package is initialised.
package init_config_var_unknown

import (
	"database/sql"
	"errors"
	"os"
	"strconv"

	_ "modernc.org/sqlite"
)

// minBalance is the floor a debit must leave, set by the deployment.
var minBalance = floor(os.Getenv("MIN_BALANCE"))

// floor reads the configured floor; 0 when it is not set.
func floor(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// ErrFloor is returned when the debit would go below the floor.
var ErrFloor = errors.New("withdraw: below the floor")

// Withdraw debits amount from account id if the balance stays at or above
// the configured floor. Whether the balance stays >= 0 depends on the
// floor the deployment sets: the analysis does not choose it.
func Withdraw(db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("withdraw: bad amount")
	}
	res, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance - ? >= ?", amount, id, amount, minBalance)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrFloor
	}
	return nil
}
