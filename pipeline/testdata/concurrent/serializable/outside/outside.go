// Package outside checks the balance before its SERIALIZABLE transaction
// begins, on the pool: the check is not part of the serializable
// transaction, so serializability does not order it with the debit.
package outside

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from account id if the balance covers it.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	var bal int64
	if err := a.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient funds")
	}
	tx, err := a.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
