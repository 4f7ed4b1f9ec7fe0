// Package outsidecalls charges a fee read from two feature flags of an
// outside configuration service: the same callee twice.
package outsidecalls

import (
	"database/sql"
	"os"
	"strconv"

	_ "modernc.org/sqlite"
)

// Charge takes the base fee and the surcharge, both read from the
// environment, from an account that is checked for the base fee only.
func Charge(db *sql.DB, id int64) error {
	base, err := strconv.ParseInt(os.Getenv("BASE_FEE"), 10, 64)
	if err != nil || base < 0 {
		return err
	}
	extra, err := strconv.ParseInt(os.Getenv("SURCHARGE"), 10, 64)
	if err != nil || extra < 0 {
		return err
	}
	_, err = db.Exec(`UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= ?`, base+extra, id, base)
	return err
}
