// Package mixedlevels has a withdraw at the default level beside a
// read-only report that opens a SERIALIZABLE transaction: the report's
// level is not the withdraw's.
package mixedlevels

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Withdraw debits amount from account id if the balance covers it, in a
// transaction at the database's default level.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := a.db.BeginTx(ctx, nil)
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

// Total sums the balances in a SERIALIZABLE, read-only transaction.
func (a *Accounts) Total(ctx context.Context) (int64, error) {
	tx, err := a.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable, ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var total int64
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(SUM(balance), 0) FROM accounts").Scan(&total); err != nil {
		return 0, err
	}
	return total, tx.Commit()
}
