// Package pg_aborted_tx_safe debits a wallet first and reads the balance
// back to undo an overdraft; a failed read is only logged. On PostgreSQL a
// failed statement aborts the transaction: every later statement fails and
// COMMIT rolls back, so the debit can never be committed unchecked.
package pg_aborted_tx_safe

import (
	"context"
	"database/sql"
	"log"

	_ "github.com/lib/pq"
)

// Wallets is the wallet repository.
type Wallets struct{ db *sql.DB }

// Pay debits amount from wallet id unless that overdraws it.
func (w *Wallets) Pay(ctx context.Context, id, amount int64) error {
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		tx.Rollback()
		return err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM wallets WHERE id = $1", id).Scan(&bal); err != nil {
		log.Printf("pay: reading the balance: %v", err)
	}
	if bal < 0 {
		return tx.Rollback()
	}
	return tx.Commit()
}
