// Package mysql_set_transaction_in_tx_unsafe is the account store of a payments service on
// MySQL.
//
// The withdrawal asks for SERIALIZABLE with SET TRANSACTION inside the
// transaction and ignores the error: MySQL refuses it there (1568, a
// transaction is in progress), the transaction runs at REPEATABLE READ, and
// two withdrawals of 100 from 100 both read 100 and leave -100.
package mysql_set_transaction_in_tx_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
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
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	defer tx.Rollback()
	// Serializable, so that the check holds (the error is only logged).
	_, _ = tx.ExecContext(ctx, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&balance); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit()
}
