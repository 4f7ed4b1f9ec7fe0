// Package mysql_close_deposit_rr_unsafe is the account store of a bank on MySQL: an account
// is closed only when empty, and a closed account takes no deposit.
//
// Close racing Deposit on MySQL (REPEATABLE READ): both plain reads are
// snapshots, the deposit UPDATE is a current read that waits for Close and
// credits the closed account.
package mysql_close_deposit_rr_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrBadAmount = errors.New("accounts: amount must be positive")
	ErrNotEmpty  = errors.New("accounts: the balance is not zero")
	ErrClosed    = errors.New("accounts: account closed")
)

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Close closes account id; only an empty account can be closed.
func (s *Store) Close(ctx context.Context, id int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("close: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&balance); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if balance != 0 {
		return ErrNotEmpty
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET closed = 1 WHERE id = ?", id); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	return tx.Commit()
}

// Deposit credits amount to account id unless it is closed.
func (s *Store) Deposit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("deposit: %w", err)
	}
	defer tx.Rollback()
	var closed int64
	if err := tx.QueryRowContext(ctx, "SELECT closed FROM accounts WHERE id = ?", id).Scan(&closed); err != nil {
		return fmt.Errorf("deposit: %w", err)
	}
	if closed != 0 {
		return ErrClosed
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, id); err != nil {
		return fmt.Errorf("deposit: %w", err)
	}
	return tx.Commit()
}
