// Package guardedrows debits with a guarded UPDATE in a transaction,
// checks that it changed a row, then records the movement.
package guardedrows

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// ErrFunds is returned when the balance does not cover the amount.
var ErrFunds = errors.New("insufficient funds")

// Withdraw debits amount from account id and records it in the ledger.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrFunds
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO ledger (account_id, amount) VALUES ($1, $2)", id, -amount); err != nil {
		return err
	}
	return tx.Commit()
}
