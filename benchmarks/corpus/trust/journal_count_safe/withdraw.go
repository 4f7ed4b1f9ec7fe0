// Package journal_count_safe: a withdrawal journals itself in a table the
// constraint does not watch and reads the INSERT's RowsAffected; the
// double debit it guards with n == 0 never runs, since a successful
// INSERT … VALUES of one row affects exactly one.
package journal_count_safe

import (
	"database/sql"

	_ "modernc.org/sqlite"
)

// Withdraw debits amount from wallet id after checking the balance.
func Withdraw(db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return nil
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRow(`SELECT balance FROM wallets WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return nil
	}
	res, err := tx.Exec(`INSERT INTO journal (wallet_id, amount) VALUES (?, ?)`, id, -amount)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	debit := amount
	if n == 0 {
		debit = 2 * amount // never: the INSERT above wrote its one row
	}
	if _, err := tx.Exec(`UPDATE wallets SET balance = balance - ? WHERE id = ?`, debit, id); err != nil {
		return err
	}
	return tx.Commit()
}
