// Package pg_withdraw_ledger_fallback_unsafe is the account store of a payments service on PostgreSQL.
//
// A failed statement aborts a PostgreSQL transaction and releases its row
// locks at once, not at the ROLLBACK the code sends later. Withdraw locks
// the account (FOR UPDATE), checks the balance and records the request in
// a ledger whose primary key is the request id; when that INSERT fails (a
// request id already recorded: 23505), the code debits the account on the
// pool, outside the aborted transaction, with the balance it checked under
// the lock it no longer holds. Another withdrawal locks the row, reads the
// same balance and debits it meanwhile: the balance ends below zero. Alone,
// each withdrawal keeps it.
package pg_withdraw_ledger_fallback_unsafe

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
		// The ledger refused the entry: debit the account directly, its
		// balance was checked above.
		log.Printf("withdraw: ledger: %v", err)
		if _, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
			return fmt.Errorf("withdraw: %w", err)
		}
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit()
}
