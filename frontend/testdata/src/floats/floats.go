// Package floats converts parsed floats to integer cents.
package floats

import (
	"database/sql"
	"errors"
	"math"
	"strconv"
)

var errAmount = errors.New("bad amount")

// Unchecked lets NaN through its bounds.
func Unchecked(db *sql.DB, id int64, amount string) error {
	d, err := strconv.ParseFloat(amount, 64)
	if err != nil || d <= 0 || d > 1000 {
		return errAmount
	}
	_, err = db.Exec(`UPDATE accounts SET balance = balance + $1 WHERE id = $2`, int64(d*100), id)
	return err
}

// Merged converts a float that a φ and a memory cell carry: NaN when the
// parsed text is.
func Merged(db *sql.DB, id int64, amount string, half bool) error {
	d, err := strconv.ParseFloat(amount, 64)
	if err != nil {
		return errAmount
	}
	x := new(float64)
	*x = d
	if half {
		*x = math.Max(d/2, 1)
	}
	if math.IsNaN(*x) || *x <= 0 || *x > 1000 {
		return errAmount
	}
	_, err = db.Exec(`UPDATE accounts SET balance = balance + $1 WHERE id = $2`, int64(*x*100), id)
	return err
}
