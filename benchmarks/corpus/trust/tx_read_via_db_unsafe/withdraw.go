// Package tx_read_via_db_unsafe debits an account inside a transaction and
// then checks the balance, but reads it through the pool instead of the
// transaction.
package tx_read_via_db_unsafe

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
	// BUG: s.db runs on another connection and sees the committed balance,
	// not the debit the transaction has not committed yet.
	if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if bal < 0 {
		return ErrInsufficientFunds
	}
	return tx.Commit()
}
