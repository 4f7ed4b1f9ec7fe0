// Package branch passes one of two levels, chosen by an input, to the
// helper that begins the transaction: no one constant reaches the BEGIN,
// so the level is not known there.
package branch

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from account id, SERIALIZABLE when strict.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64, strict bool) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	iso := sql.LevelReadCommitted
	if strict {
		iso = sql.LevelSerializable
	}
	return a.withdrawAt(ctx, id, amount, iso)
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
