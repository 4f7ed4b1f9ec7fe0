// Package journal_count_unsafe: a withdrawal journals itself in a table
// the constraint does not watch and reads the INSERT's RowsAffected; once
// the journal row is written (n == 1, always) it debits a fee on top of
// the amount it checked: a balance equal to the amount goes to -1.
package journal_count_unsafe

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
	if n == 1 {
		debit = amount + 1 // always: the fee is charged once the journal has the row
	}
	if _, err := tx.Exec(`UPDATE wallets SET balance = balance - ? WHERE id = ?`, debit, id); err != nil {
		return err
	}
	return tx.Commit()
}
