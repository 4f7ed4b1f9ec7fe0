// Package sqlite_dispute_fee_safe charges a fee on disputed payments of a
// card processor on SQLite, capped: the fee is added only where the
// capture stays within the authorization.
package sqlite_dispute_fee_safe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrBadFee means a fee that is not positive.
var ErrBadFee = errors.New("fee must be positive")

// AddDisputeFee adds fee to the capture of every disputed payment that
// has room for it.
func AddDisputeFee(db *sql.DB, fee int64) error {
	if fee <= 0 {
		return ErrBadFee
	}
	_, err := db.Exec(`UPDATE payments SET captured = captured + ? WHERE status = 'dispute' AND captured + ? <= authorized`, fee, fee)
	return err
}
