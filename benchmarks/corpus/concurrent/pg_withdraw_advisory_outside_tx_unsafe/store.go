// Package pg_withdraw_advisory_outside_tx_unsafe is the account store of a
// payments service on PostgreSQL.
//
// The per-account advisory lock is taken on the pool, outside the
// transaction: pg_advisory_xact_lock's lock ends with that one-statement
// transaction, so two requests read, check and debit at the same time.
package pg_withdraw_advisory_outside_tx_unsafe

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

// Withdraw debits amount from account id if its balance covers it.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	// One withdrawal per account at a time, across every replica.
	if _, err := s.db.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&balance); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit()
}
