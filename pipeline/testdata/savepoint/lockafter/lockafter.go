// Package lockafter zeroes an account inside a savepoint, rolls back to
// it, and then debits the account through the pool without a guard,
// while the transaction is still open. The debit overdraws the account
// where the engine released the row lock at ROLLBACK TO (PostgreSQL,
// MariaDB); SQLite's transaction keeps its database lock and the pool's
// write fails.
package lockafter

import "database/sql"

// Debit takes amount from account id through the pool.
func Debit(db *sql.DB, id, amount int64) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("SAVEPOINT reset"); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE accounts SET balance = 0 WHERE id = ?", id); err != nil {
		return err
	}
	if _, err := tx.Exec("ROLLBACK TO SAVEPOINT reset"); err != nil {
		return err
	}
	if _, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
