// Package pg_float_nan_refund_unsafe credits refunds typed in dollars
// (text from a form) to balances kept in cents on PostgreSQL.
package pg_float_nan_refund_unsafe

import (
	"database/sql"
	"errors"
	"strconv"

	_ "github.com/lib/pq"
)

var errAmount = errors.New("refund: bad amount")

// Refund credits amount dollars, bounded to (0, 1000]. The check lets
// "NaN" through: every ordered comparison with NaN is false, and
// int64(NaN*100) is -9223372036854775808 on amd64.
func Refund(db *sql.DB, id int64, amount string) error {
	dollars, err := strconv.ParseFloat(amount, 64)
	if err != nil || dollars <= 0 || dollars > 1000 {
		return errAmount
	}
	_, err = db.Exec(`UPDATE accounts SET balance = balance + $1 WHERE id = $2`, int64(dollars*100), id)
	return err
}

// Credit credits amount dollars; !(dollars > 0) rejects NaN, but there is
// no upper bound: int64(1e302) is outside int64's range, an
// implementation-dependent result (-9223372036854775808 on amd64).
func Credit(db *sql.DB, id int64, amount string) error {
	dollars, err := strconv.ParseFloat(amount, 64)
	if err != nil || !(dollars > 0) {
		return errAmount
	}
	_, err = db.Exec(`UPDATE accounts SET balance = balance + $1 WHERE id = $2`, int64(dollars*100), id)
	return err
}
