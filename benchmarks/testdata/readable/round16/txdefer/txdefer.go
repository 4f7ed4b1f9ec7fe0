// Package txdefer checks the balance outside the transaction that
// debits it, and defers the transaction's Rollback (a no-op once it has
// committed).
package txdefer

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrFunds is returned when the balance does not cover amt.
var ErrFunds = errors.New("insufficient funds")

// Withdraw checks the balance, then debits it in a transaction.
func Withdraw(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return ErrFunds
	}
	var bal int64
	if err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amt {
		return ErrFunds
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id); err != nil {
		return err
	}
	return tx.Commit()
}
