// Package codetrigger records withdrawals; a trigger its start-up
// migration creates (not in --schema) debits the account, plus a fee.
package codetrigger

import (
	"context"
	"database/sql"
	"errors"
)

const schemaSQL = `
CREATE TABLE IF NOT EXISTS accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS withdrawals (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, amount INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS withdrawals_debit AFTER INSERT ON withdrawals
BEGIN
  UPDATE accounts SET balance = balance - NEW.amount - 1 WHERE id = NEW.account_id;
END;`

// Migrate creates the schema at start-up.
//
//dbverify:ignore DBV002 start-up migration, not a request path
func Migrate(db *sql.DB) error {
	_, err := db.Exec(schemaSQL)
	return err
}

// Withdraw records a withdrawal the balance covers; the trigger takes it
// and a fee of 1 from the account (balance 10, amount 10: -1).
func Withdraw(ctx context.Context, db *sql.DB, accountID, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, accountID).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient funds")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO withdrawals (account_id, amount) VALUES (?, ?)`, accountID, amount); err != nil {
		return err
	}
	return tx.Commit()
}
