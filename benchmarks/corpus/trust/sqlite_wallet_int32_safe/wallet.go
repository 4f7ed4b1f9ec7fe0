// Package sqlite_wallet_int32_safe debits wallets named by their owner on
// SQLite. Pay builds a Payment literal and hands it to debit, which
// compares the balance with the amount as int64.
package sqlite_wallet_int32_safe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrFunds means a balance below the amount.
var ErrFunds = errors.New("insufficient funds")

// Payment is a debit request.
type Payment struct {
	Amount int64
	From   string
	Note   string
}

// Pay debits owner's wallet by amount.
func Pay(db *sql.DB, owner string, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	p := Payment{Amount: amount, From: owner}
	return debit(db, p)
}

func debit(db *sql.DB, p Payment) error {
	var bal int64
	if err := db.QueryRow(`SELECT balance FROM wallets WHERE owner = ?`, p.From).Scan(&bal); err != nil {
		return err
	}
	if bal < p.Amount {
		return ErrFunds
	}
	_, err := db.Exec(`UPDATE wallets SET balance = balance - ? WHERE owner = ?`, p.Amount, p.From)
	return err
}
