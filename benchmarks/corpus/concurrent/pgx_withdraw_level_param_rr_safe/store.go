// Package pgx_withdraw_level_param_rr_safe is the account store of a payments service on
// PostgreSQL through a pgx connection pool.
//
// Withdraw runs the check-then-act debit in a helper that takes the
// isolation level as a parameter and builds pgx.TxOptions{IsoLevel: iso};
// the only caller passes pgx.RepeatableRead: a racing debit fails with a
// serialization error.
package pgx_withdraw_level_param_rr_safe

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var (
	ErrBadAmount         = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

// Store is the account repository.
type Store struct{ pool *pgxpool.Pool }

func NewStore(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Withdraw debits amount from account id if its balance covers it.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	return s.withdrawAt(ctx, id, amount, pgx.RepeatableRead)
}

func (s *Store) withdrawAt(ctx context.Context, id, amount int64, iso pgx.TxIsoLevel) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: iso})
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	defer tx.Rollback(ctx)
	var balance int64
	if err := tx.QueryRow(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&balance); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit(ctx)
}
