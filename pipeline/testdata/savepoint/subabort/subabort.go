// Package subabort writes a ledger row inside a savepoint; when the
// INSERT fails (on PostgreSQL that aborts the savepoint's
// subtransaction, not the transaction) it rolls back to the savepoint
// and debits without a guard in the same transaction, which commits:
// UNSAFE.
package subabort

import "database/sql"

// Debit records amount in the ledger and, if that fails, takes it from
// account id anyway.
func Debit(db *sql.DB, id, amount int64) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("SAVEPOINT ledger"); err != nil {
		return err
	}
	if _, err := tx.Exec("INSERT INTO ledger (account_id, amount) VALUES ($1, $2)", id, amount); err != nil {
		if _, err := tx.Exec("ROLLBACK TO SAVEPOINT ledger"); err != nil {
			return err
		}
		if _, err := tx.Exec("UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = db.Exec("INSERT INTO audit (account_id) VALUES ($1)", id)
	return err
}
