// Package guard_go_safe implements account withdrawals for the payments API.
package guard_go_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var (
	ErrInvalidAmount     = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

const (
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// NewStore returns a Store backed by db.
func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw debits amt from account id after checking that it is covered.
func (s *Store) Withdraw(ctx context.Context, id int64, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	var bal int64
	if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return fmt.Errorf("load account %d: %w", id, err)
	}
	if bal < amt {
		return ErrInsufficientFunds
	}
	if _, err := s.db.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return fmt.Errorf("debit account %d: %w", id, err)
	}
	return nil
}
