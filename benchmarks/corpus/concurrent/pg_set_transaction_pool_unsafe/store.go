// Package pg_set_transaction_pool_unsafe is the account store of a payments service on
// PostgreSQL.
//
// The withdrawal asks for REPEATABLE READ with SET TRANSACTION sent on the
// pool before BeginTx: outside a transaction block PostgreSQL only warns
// (25P01) and sets nothing, so the transaction runs at READ COMMITTED and
// two withdrawals of 100 from 100 both pass the check: -100.
package pg_set_transaction_pool_unsafe

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
	if _, err := s.db.ExecContext(ctx, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"); err != nil {
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
