// Package pg_withdraw_advisory_hashtext_safe is the account store of a
// payments service on PostgreSQL.
//
// Withdrawals and payments debit the same balances, and both take the
// advisory lock named "accounts", pg_advisory_xact_lock(hashtext($1)), at
// the start of the transaction: a withdrawal and a payment on one account
// exclude each other, and the second reads the balance the first left.
package pg_withdraw_advisory_hashtext_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadAmount         = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw pays amount out of account id.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	return s.debit(ctx, "accounts", id, amount)
}

// Pay pays a merchant amount from account id.
func (s *Store) Pay(ctx context.Context, id, amount int64) error {
	return s.debit(ctx, "accounts", id, amount)
}

// debit takes amount from account id under the named advisory lock.
func (s *Store) debit(ctx context.Context, lock string, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("debit: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext($1))", lock); err != nil {
		return fmt.Errorf("debit: %w", err)
	}
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&balance); err != nil {
		return fmt.Errorf("debit: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("debit: %w", err)
	}
	return tx.Commit()
}
