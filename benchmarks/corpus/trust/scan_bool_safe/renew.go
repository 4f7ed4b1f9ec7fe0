// Package scan_bool_safe renews club memberships (SQLite): a member pays the
// yearly fee of 10 per membership from the credit. The credit check covers the fee.
package scan_bool_safe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var (
	ErrNotMember = errors.New("renew: not a member")
	ErrNoCredit  = errors.New("renew: not enough credit")
)

// Renew charges member id the yearly fee. The member flag, an INTEGER
// column, is scanned into a Go bool: database/sql accepts 0 and 1 only.
func Renew(db *sql.DB, id int64) error {
	var member bool
	var credit int64
	if err := db.QueryRow("SELECT member, credit FROM accounts WHERE id = ?", id).Scan(&member, &credit); err != nil {
		return err
	}
	if !member {
		return ErrNotMember
	}
	if credit < 10 {
		return ErrNoCredit
	}
	_, err := db.Exec("UPDATE accounts SET credit = credit - 10 * member WHERE id = ?", id)
	return err
}
