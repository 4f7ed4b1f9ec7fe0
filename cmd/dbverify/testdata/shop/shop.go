// Package shop debits wallets and charges dispute fees: two bugs for the
// trace tests (a string column the WHERE matches by a literal, a 32-bit
// comparison of 64-bit amounts).
package shop

import (
	"database/sql"
	"errors"
)

// Payment is a debit request.
type Payment struct {
	Amount int64
	From   string
	Note   string
}

// AddDisputeFee adds a fee to every disputed payment's capture (bug: no cap).
func AddDisputeFee(db *sql.DB, fee int64) error {
	if fee <= 0 {
		return errors.New("fee must be positive")
	}
	_, err := db.Exec(`UPDATE payments SET captured = captured + ? WHERE status = 'dispute' AND captured < authorized`, fee)
	return err
}

// Pay debits owner's wallet by amount.
func Pay(db *sql.DB, owner string, amount int64) error {
	p := Payment{Amount: amount, From: owner}
	return debit(db, p)
}

func debit(db *sql.DB, p Payment) error {
	var bal int64
	if err := db.QueryRow(`SELECT balance FROM wallets WHERE owner = ?`, p.From).Scan(&bal); err != nil {
		return err
	}
	if int32(bal) < int32(p.Amount) { // bug: the amounts are int64
		return errors.New("insufficient funds")
	}
	_, err := db.Exec(`UPDATE wallets SET balance = balance - ? WHERE owner = ?`, p.Amount, p.From)
	return err
}

// Coupon is a row of coupons.
type Coupon struct {
	Code    string
	Uses    int64
	MaxUses int64
}

// Redeem uses a coupon once: read, check, write in a transaction (bug:
// the read takes no lock, two redemptions of the last use both pass).
func Redeem(db *sql.DB, code string) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op once committed
	c := Coupon{Code: code}
	if err := tx.QueryRow(`SELECT uses, max_uses FROM coupons WHERE code = ?`, c.Code).Scan(&c.Uses, &c.MaxUses); err != nil {
		return err
	}
	if c.Uses >= c.MaxUses {
		return errors.New("coupon used up")
	}
	if _, err := tx.Exec(`UPDATE coupons SET uses = uses + 1 WHERE code = ?`, c.Code); err != nil {
		return err
	}
	return tx.Commit()
}

// ChargeFee debits a percentage of amount as a fee (bug: the balance is
// not checked).
func ChargeFee(db *sql.DB, owner string, amount int64, pct float64) error {
	if pct < 0 || amount <= 0 {
		return errors.New("bad fee")
	}
	fee := int64(float64(amount) * pct)
	if uint(fee) > 1000 {
		return errors.New("fee too high")
	}
	_, err := db.Exec(`UPDATE wallets SET balance = balance - ? WHERE owner = ?`, fee, owner)
	return err
}

// Rename credits a wallet named by raw bytes (bug: "free" debits).
func Rename(db *sql.DB, name []byte, n int64) error {
	if n <= 0 {
		return errors.New("bad n")
	}
	owner := string(name)
	if owner == "free" {
		n = -n
	}
	_, err := db.Exec(`UPDATE wallets SET balance = balance + ? WHERE owner = ?`, n, owner)
	return err
}
