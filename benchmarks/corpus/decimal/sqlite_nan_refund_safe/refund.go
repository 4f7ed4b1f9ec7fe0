// Package sqlite_nan_refund_safe refunds store credit (SQLite) in float64 amounts.
// NaN and non-positive amounts are rejected.
package sqlite_nan_refund_safe

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
	if math.IsNaN(amount) || amount <= 0 || amount > 100 {
		return ErrAmount
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, id)
	return err
}

// Credit credits a positive amount but does not ask math.IsNaN: a NaN
// passes both comparisons and reaches the UPDATE, where SQLite binds it
// as NULL and the NOT NULL balance refuses balance + NULL (groundtruth
// TestNaNArgument). The model does not follow a NaN argument: UNKNOWN.
func Credit(db *sql.DB, id int64, amount float64) error {
	if amount <= 0 || amount > 100 {
		return ErrAmount
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, id)
	return err
}

// CreditPrepared is Credit through a prepared statement: the same NaN
// reaches Stmt.Exec's arguments (UNKNOWN in the model, refused by the
// NOT NULL balance on SQLite).
func CreditPrepared(db *sql.DB, id int64, amount float64) error {
	if amount <= 0 || amount > 100 {
		return ErrAmount
	}
	st, err := db.Prepare("UPDATE accounts SET balance = balance + ? WHERE id = ?")
	if err != nil {
		return err
	}
	defer st.Close()
	_, err = st.Exec(amount, id)
	return err
}
