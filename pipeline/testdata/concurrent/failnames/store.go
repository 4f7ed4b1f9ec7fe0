// Package failnames is the account store of a payments service on PostgreSQL.
//
// Withdraw locks the account (FOR UPDATE) in a transaction, checks the
// balance, records the request in a ledger as a best effort (the INSERT's
// error is ignored: no variable names it) and then debits the account on
// the pool instead of the transaction (a statement that escapes its
// transaction). While the transaction holds its lock the debit waits for
// it; where the ledger INSERT fails (a request id already recorded:
// 23505), the error aborts the transaction and releases the lock at once,
// and the debit runs with the balance checked under a lock no longer
// held. Two withdrawals whose ledger entries both fail each debit the
// balance they read: it ends below zero.
package failnames

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	tx, dbErr := s.db.BeginTx(ctx, nil)
	if dbErr != nil {
		return fmt.Errorf("withdraw: %w", dbErr)
	}
	defer tx.Rollback()
	var balance int64
	if e := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", id).Scan(&balance); e != nil {
		return fmt.Errorf("withdraw: %w", e)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	tx.ExecContext(ctx, "INSERT INTO withdrawals (request_id, account_id, amount) VALUES ($1, $2, $3)", requestID, id, amount)
	if _, e := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); e != nil {
		return fmt.Errorf("withdraw: %w", e)
	}
	return tx.Commit()
}
