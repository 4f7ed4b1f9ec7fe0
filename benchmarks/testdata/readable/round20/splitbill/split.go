// Package splitbill charges each member a share of a bill (MySQL).
package splitbill

import (
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// SplitBill takes the share total / parts from the account, guarded by
// a balance check on the whole shares only.
func SplitBill(db *sql.DB, id, total, parts int64) error {
	if total <= 0 || parts <= 0 {
		return nil
	}
	_, err := db.Exec(`UPDATE accounts SET credits = credits - ? / ? WHERE id = ? AND credits >= ? DIV ?`, total, parts, id, total, parts)
	return err
}
