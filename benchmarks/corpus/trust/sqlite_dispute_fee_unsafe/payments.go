// Package sqlite_dispute_fee_unsafe charges a fee on disputed payments of a
// card processor on SQLite (adv7 p40, D2: the trace printed the matched
// status as an internal integer). The fee is added to the capture of every
// payment whose status is 'dispute' and that is not fully captured, with
// no cap: a capture 1 below the authorization plus a fee of 2 exceeds it.
package sqlite_dispute_fee_unsafe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrBadFee means a fee that is not positive.
var ErrBadFee = errors.New("fee must be positive")

// AddDisputeFee adds fee to the capture of every disputed payment.
func AddDisputeFee(db *sql.DB, fee int64) error {
	if fee <= 0 {
		return ErrBadFee
	}
	_, err := db.Exec(`UPDATE payments SET captured = captured + ? WHERE status = 'dispute' AND captured < authorized`, fee)
	return err
}
