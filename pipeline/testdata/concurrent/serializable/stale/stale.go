// Package stale holds funds in SERIALIZABLE transactions with a retry
// loop that keeps what the first attempt read: the retry writes a value
// computed from a read of an aborted transaction.
package stale

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

var errInsufficient = errors.New("insufficient available funds")

// Hold reserves amt of the available balance, retrying on any failure;
// only the first attempt reads the row.
func (a *Accounts) Hold(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	var balance, held int64
	for attempt := 0; attempt < 3; attempt++ {
		tx, err := a.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
		if err != nil {
			return err
		}
		if attempt == 0 {
			if err := tx.QueryRowContext(ctx, "SELECT balance, held FROM accounts WHERE id = $1", id).Scan(&balance, &held); err != nil {
				tx.Rollback()
				return err
			}
		}
		if held+amt > balance {
			tx.Rollback()
			return errInsufficient
		}
		if _, err := tx.ExecContext(ctx, "UPDATE accounts SET held = $1 WHERE id = $2", held+amt, id); err != nil {
			tx.Rollback()
			continue
		}
		if err := tx.Commit(); err != nil {
			continue
		}
		return nil
	}
	return errors.New("too many retries")
}

// Withdraw takes amt out of the available balance.
func (a *Accounts) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := a.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var balance, held int64
	if err := tx.QueryRowContext(ctx, "SELECT balance, held FROM accounts WHERE id = $1", id).Scan(&balance, &held); err != nil {
		return err
	}
	if balance-held < amt {
		return errInsufficient
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amt, id); err != nil {
		return err
	}
	return tx.Commit()
}
