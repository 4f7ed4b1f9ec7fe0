// Package sqlite_nan_refund_unsafe refunds store credit (SQLite) in float64 amounts.
// The lower bound is missing.
package sqlite_nan_refund_unsafe

import (
	"database/sql"
	"errors"
	"math"

	_ "modernc.org/sqlite"
)

// ErrAmount rejects an amount outside (0, 100].
var ErrAmount = errors.New("refund: bad amount")

// Refund credits amount to account id. Every ordered comparison with NaN
// is false, so only math.IsNaN keeps a NaN amount out.
func Refund(db *sql.DB, id int64, amount float64) error {
	if math.IsNaN(amount) || amount > 100 {
		return ErrAmount
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, id)
	return err
}
