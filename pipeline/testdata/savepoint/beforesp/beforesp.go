// Package beforesp debits before setting its savepoint: ROLLBACK TO does
// not undo the debit, which is committed (UNSAFE).
package beforesp

import "database/sql"

// Debit takes amount from account id, and means to undo an overdraft.
func Debit(db *sql.DB, id, amount int64) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		return err
	}
	if _, err := tx.Exec("SAVEPOINT debit"); err != nil {
		return err
	}
	var bal int64
	if err := tx.QueryRow("SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal); err != nil {
		return err
	}
	if bal < 0 {
		if _, err := tx.Exec("ROLLBACK TO SAVEPOINT debit"); err != nil {
			return err
		}
	}
	return tx.Commit()
}
