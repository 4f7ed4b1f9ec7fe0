// Package pg_close_deposit_rc_unsafe is the account store of a bank on PostgreSQL: an account
// is closed only when empty, and a closed account takes no deposit.
//
// An edit racing a (soft) delete, DPF's PetClinic/OpenMRS stale-view bug:
// Close reads the balance 0 and closes the account while Deposit, having
// read closed = 0, credits it. At READ COMMITTED the deposit waits for
// Close's row lock and then applies to the closed account: closed with
// balance 50.
package pg_close_deposit_rc_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
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
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&balance); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if balance != 0 {
		return ErrNotEmpty
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET closed = 1 WHERE id = $1", id); err != nil {
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
	if err := tx.QueryRowContext(ctx, "SELECT closed FROM accounts WHERE id = $1", id).Scan(&closed); err != nil {
		return fmt.Errorf("deposit: %w", err)
	}
	if closed != 0 {
		return ErrClosed
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("deposit: %w", err)
	}
	return tx.Commit()
}
