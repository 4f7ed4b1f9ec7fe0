// Package pg_float_nan_refund_safe credits refunds typed in dollars
// (text from a form) to balances kept in cents on PostgreSQL.
package pg_float_nan_refund_safe

import (
	"database/sql"
	"errors"
	"math"
	"strconv"

	_ "github.com/lib/pq"
)

var errAmount = errors.New("refund: bad amount")

// Refund credits amount dollars, bounded to (0, 1000]; math.IsNaN
// rejects "NaN", which every ordered comparison lets through.
func Refund(db *sql.DB, id int64, amount string) error {
	dollars, err := strconv.ParseFloat(amount, 64)
	if err != nil || math.IsNaN(dollars) || dollars <= 0 || dollars > 1000 {
		return errAmount
	}
	_, err = db.Exec(`UPDATE accounts SET balance = balance + $1 WHERE id = $2`, int64(dollars*100), id)
	return err
}

// Credit credits amount dollars, bounded to (0, 1000]; !(dollars > 0)
// is false for NaN, so NaN is rejected.
func Credit(db *sql.DB, id int64, amount string) error {
	dollars, err := strconv.ParseFloat(amount, 64)
	if err != nil || !(dollars > 0) || dollars > 1000 {
		return errAmount
	}
	_, err = db.Exec(`UPDATE accounts SET balance = balance + $1 WHERE id = $2`, int64(dollars*100), id)
	return err
}
