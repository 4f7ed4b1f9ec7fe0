// Package tx_read_via_db_safe debits an account inside a transaction and
// then checks the balance through the transaction before committing.
package tx_read_via_db_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficientFunds = errors.New("accounts: insufficient funds")

const (
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id, rolling back when the account would
// be overdrawn.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if bal < 0 {
		return ErrInsufficientFunds
	}
	return tx.Commit()
}
