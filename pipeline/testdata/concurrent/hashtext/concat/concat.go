// Package concat locks hashtext of a key built in Go, "wallet:" and the
// account id's decimal text: two withdrawals of one account lock the same
// key, and the second reads the balance the first left.
package concat

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw pays amount out of account id under the account's lock.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext($1))", "wallet:"+strconv.FormatInt(id, 10)); err != nil {
		return err
	}
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
