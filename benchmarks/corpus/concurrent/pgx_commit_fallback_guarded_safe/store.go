// Package pgx_commit_fallback_guarded_safe is the account store of a payments service on
// PostgreSQL through a pgx connection pool (pgx's native interface).
//
// The COMMIT fallback of pgx_commit_fallback_unsafe, fixed: the failed
// COMMIT rolled the transaction back and released its lock, so the balance
// checked under it may be stale; the fallback debit on the pool re-checks
// it in its WHERE (balance >= $1) and reports a refused debit by the
// command tag's RowsAffected.
package pgx_commit_fallback_guarded_safe

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
		// The debit was rolled back, and the lock with it: apply it
		// directly, checking the balance again.
		tag, e := s.pool.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id)
		if e != nil {
			return fmt.Errorf("withdraw: %w", e)
		}
		if tag.RowsAffected() == 0 {
			return ErrInsufficientFunds
		}
	}
	return nil
}
