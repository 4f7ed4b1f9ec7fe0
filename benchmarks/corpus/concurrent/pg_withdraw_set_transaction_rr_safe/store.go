// Package pg_withdraw_set_transaction_rr_safe is the account store of a payments service on PostgreSQL.
//
// The check-then-act withdrawal with a plain SELECT at REPEATABLE READ, set
// by the transaction's first statement (SET TRANSACTION ISOLATION LEVEL …)
// rather than sql.TxOptions: when two requests race, the second UPDATE of
// the row the first changed fails with "could not serialize access due to
// concurrent update" (40001) and Withdraw returns that error.
package pg_withdraw_set_transaction_rr_safe

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
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
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
