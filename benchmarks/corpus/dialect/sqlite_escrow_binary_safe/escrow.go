// Package sqlite_escrow_binary_safe is the escrow step of a trading
// desk kept in SQLite: a buyer's credit moves into the seller's reserve,
// which the seller's own credit must back.
package sqlite_escrow_binary_safe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var (
	ErrBadDeal      = errors.New("escrow: a positive amount between two different traders")
	ErrInsufficient = errors.New("escrow: the buyer's free credit is too low")
	ErrUnbacked     = errors.New("escrow: the seller's credit cannot back the reserve")
)

// Escrow moves amt of the buyer's credit into the seller's reserve (a
// SQLite transaction). The traders are told apart in Go, byte for byte,
// and the key's BINARY collation compares them so too: buyer and seller
// are two rows, each checked before its write.
func Escrow(db *sql.DB, buyer, seller string, amt int64) error {
	if amt <= 0 || buyer == seller {
		return ErrBadDeal
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var bCredit, bReserved int64
	if err := tx.QueryRow("SELECT credit, reserved FROM traders WHERE handle = ?", buyer).Scan(&bCredit, &bReserved); err != nil {
		return err
	}
	if bCredit-bReserved < amt {
		return ErrInsufficient
	}
	var sCredit, sReserved int64
	if err := tx.QueryRow("SELECT credit, reserved FROM traders WHERE handle = ?", seller).Scan(&sCredit, &sReserved); err != nil {
		return err
	}
	if sReserved+amt > sCredit {
		return ErrUnbacked
	}
	if _, err := tx.Exec("UPDATE traders SET credit = ? WHERE handle = ?", bCredit-amt, buyer); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE traders SET reserved = ? WHERE handle = ?", sReserved+amt, seller); err != nil {
		return err
	}
	return tx.Commit()
}
