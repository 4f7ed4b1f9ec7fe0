// Package levelparam begins its transaction in a helper that takes the
// isolation level as a parameter; the only caller passes
// sql.LevelSerializable (adversary adv14 m1: UNKNOWN before, "options not
// written there", while the header claimed READ COMMITTED).
package levelparam

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from account id in a SERIALIZABLE transaction.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	return a.withdrawAt(ctx, id, amount, sql.LevelSerializable)
}

func (a *Accounts) withdrawAt(ctx context.Context, id, amount int64, iso sql.IsolationLevel) error {
	tx, err := a.db.BeginTx(ctx, &sql.TxOptions{Isolation: iso})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient funds")
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
