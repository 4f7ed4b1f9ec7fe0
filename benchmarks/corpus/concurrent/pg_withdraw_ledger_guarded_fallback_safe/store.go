// Package pg_withdraw_ledger_guarded_fallback_safe is the account store of a payments service on PostgreSQL.
//
// The ledger fallback of pg_withdraw_ledger_fallback_unsafe, fixed: when the
// ledger INSERT fails, the failed statement has aborted the transaction and
// released its lock on the account, so the balance checked under it may be
// stale; the fallback debit on the pool re-checks it in its WHERE
// (balance >= $1) and reports a refused debit by RowsAffected.
package pg_withdraw_ledger_guarded_fallback_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadAmount         = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw debits amount from account id if its balance covers it, and
// records the request in the ledger.
func (s *Store) Withdraw(ctx context.Context, requestID, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", id).Scan(&balance); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO withdrawals (request_id, account_id, amount) VALUES ($1, $2, $3)", requestID, id, amount); err != nil {
		// The ledger refused the entry, and the error ended the
		// transaction and its lock: debit the account directly, checking
		// the balance again.
		log.Printf("withdraw: ledger: %v", err)
		res, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id)
		if err != nil {
			return fmt.Errorf("withdraw: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return ErrInsufficientFunds
		}
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit()
}
