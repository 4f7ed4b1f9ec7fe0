// Package pgx_commit_fallback_unsafe is the account store of a payments service on
// PostgreSQL through a pgx connection pool (pgx's native interface).
//
// Withdraw locks the account (FOR UPDATE), checks the balance and debits it
// in a transaction. When its COMMIT fails, the code takes the debit for
// lost and applies it again on the pool, with the balance it checked under
// a lock the failed COMMIT (a rollback) released: another withdrawal locks
// the row meanwhile, reads the same balance and debits it, and the balance
// ends below zero. The COMMIT's error is named commitErr.
package pgx_commit_fallback_unsafe

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
	tx, beginErr := s.pool.BeginTx(ctx, pgx.TxOptions{})
	if beginErr != nil {
		return fmt.Errorf("withdraw: %w", beginErr)
	}
	defer tx.Rollback(ctx)
	var balance int64
	if e := tx.QueryRow(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", id).Scan(&balance); e != nil {
		return fmt.Errorf("withdraw: %w", e)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, e := tx.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); e != nil {
		return fmt.Errorf("withdraw: %w", e)
	}
	if commitErr := tx.Commit(ctx); commitErr != nil {
		// The debit was rolled back: apply it directly, the balance was
		// checked above.
		if _, e := s.pool.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); e != nil {
			return fmt.Errorf("withdraw: %w", e)
		}
	}
	return nil
}
