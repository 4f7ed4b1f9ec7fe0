// Package pg_withdraw_level_param_rc_unsafe is the account store of a payments service on PostgreSQL.
//
// The check-then-act withdrawal with a plain SELECT runs in a helper that
// takes the isolation level as a parameter (runTx-style); Withdraw passes
// sql.LevelReadCommitted: two requests both read the balance before
// either debits, and the second debit applies to the committed balance.
package pg_withdraw_level_param_rc_unsafe

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
	return s.withdrawAt(ctx, id, amount, sql.LevelReadCommitted)
}

func (s *Store) withdrawAt(ctx context.Context, id, amount int64, iso sql.IsolationLevel) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: iso})
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
