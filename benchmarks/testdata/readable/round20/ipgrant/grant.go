// Package ipgrant takes credits for a grant requested from an IP
// address, which it parses first.
package ipgrant

import (
	"database/sql"
	"errors"
	"net"

	_ "modernc.org/sqlite"
)

// Grant takes amount from the account without checking the balance,
// after checking that addr is an IP address.
func Grant(db *sql.DB, id, amount int64, addr string) error {
	if net.ParseIP(addr) == nil {
		return errors.New("not an IP address")
	}
	_, err := db.Exec(`UPDATE accounts SET credits = credits - ? WHERE id = ?`, amount, id)
	return err
}
