// Package retry runs the SERIALIZABLE debit of a helper that takes the
// level as a parameter, retrying serialization failures (adversary adv14
// p13: UNKNOWN before, "predicate limit 80 reached").
package retry

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

var errFunds = errors.New("insufficient funds")

// Withdraw debits amount from account id, up to 5 attempts.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	var err error
	for i := 0; i < 5; i++ {
		err = a.withdrawAt(ctx, id, amount, sql.LevelSerializable)
		if err == nil || errors.Is(err, errFunds) {
			return err
		}
	}
	return err
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
		return errFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
