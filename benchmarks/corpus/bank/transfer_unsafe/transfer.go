// Package transfer_unsafe moves money between two accounts.
package transfer_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var (
	ErrSameAccount       = errors.New("bank: cannot transfer to the same account")
	ErrInsufficientFunds = errors.New("bank: insufficient funds")
)

const (
	lockBalance   = "SELECT balance FROM accounts WHERE id = ? FOR UPDATE"
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	creditAccount = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// NewStore returns a Store backed by db.
func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Transfer moves amt from account from to account to atomically.
func (s *Store) Transfer(ctx context.Context, from, to, amt int64) error {
	if from == to {
		return ErrSameAccount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var bal int64
	if err := tx.QueryRowContext(ctx, lockBalance, from).Scan(&bal); err != nil {
		return fmt.Errorf("lock account %d: %w", from, err)
	}
	if bal < amt {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, debitAccount, amt, from); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, creditAccount, amt, to); err != nil {
		return err
	}
	return tx.Commit()
}
