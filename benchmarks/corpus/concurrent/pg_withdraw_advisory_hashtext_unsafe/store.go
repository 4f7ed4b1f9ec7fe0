// Package pg_withdraw_advisory_hashtext_unsafe is the account store of a
// payments service on PostgreSQL.
//
// Withdrawals and payments debit the same balances, but each takes an
// advisory lock of its own at the start of the transaction,
// pg_advisory_xact_lock(hashtext($1)) on "withdrawals" or on "payments":
// two withdrawals exclude each other, but a withdrawal and a payment on
// one account run together, both read the same balance and both debit it.
package pg_withdraw_advisory_hashtext_unsafe

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
	return s.debit(ctx, "withdrawals", id, amount)
}

// Pay pays a merchant amount from account id.
func (s *Store) Pay(ctx context.Context, id, amount int64) error {
	return s.debit(ctx, "payments", id, amount)
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
