// Package mysql_failed_read_unsafe debits a wallet first and reads the balance
// back to undo an overdraft; a failed read is only logged. On MySQL a
// failed statement does not end the transaction: bal stays 0 and COMMIT
// makes the unchecked debit permanent.
package mysql_failed_read_unsafe

import (
	"context"
	"database/sql"
	"log"

	_ "github.com/go-sql-driver/mysql"
)

// Wallets is the wallet repository.
type Wallets struct{ db *sql.DB }

// Pay debits amount from wallet id unless that overdraws it.
func (w *Wallets) Pay(ctx context.Context, id, amount int64) error {
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		tx.Rollback()
		return err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM wallets WHERE id = ?", id).Scan(&bal); err != nil {
		log.Printf("pay: reading the balance: %v", err)
	}
	if bal < 0 {
		return tx.Rollback()
	}
	return tx.Commit()
}
