// Package pg_withdraw_half_three_unsafe is the account store of a payments
// service on PostgreSQL.
//
// A withdrawal may take at most half of the balance it reads, with no lock:
// two concurrent withdrawals cannot overdraw (each takes at most half of
// what both read), three can: with a balance of 2, three withdrawals of 1
// read 2 before any debits and leave -1. Checked with --requests 3.
package pg_withdraw_half_three_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadAmount  = errors.New("accounts: amount must be positive")
	ErrOverLimit  = errors.New("accounts: a withdrawal may take at most half the balance")
	maxWithdrawal = int64(1_000_000)
)

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw debits amount from account id when it is at most half the
// balance.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 || amount > maxWithdrawal {
		return ErrBadAmount
	}
	var balance int64
	if err := s.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&balance); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if 2*amount > balance {
		return ErrOverLimit
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return nil
}
