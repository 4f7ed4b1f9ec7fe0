// Package rc passes sql.LevelReadCommitted to the helper that begins the
// transaction: the level is known, and the race of the unlocked check is
// a counterexample, not an UNKNOWN.
package rc

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from account id in a READ COMMITTED transaction: two debits race.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	return a.withdrawAt(ctx, id, amount, sql.LevelReadCommitted)
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
