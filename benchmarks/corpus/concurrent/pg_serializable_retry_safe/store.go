// Package pg_serializable_retry_safe is the account store of a payments service on
// PostgreSQL that runs its transactions at SERIALIZABLE.
//
// SERIALIZABLE with a retry loop that runs the whole transaction again on
// 40001/40P01 (what pgx#1040 asks applications to do): a withdrawal that
// loses the race re-reads the balance in its next attempt.
package pg_serializable_retry_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/jackc/pgx/v5/pgconn"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadAmount         = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// maxAttempts bounds the retries of a withdrawal.
const maxAttempts = 5

// Withdraw debits amount from account id if its balance covers it,
// running the whole transaction again when it loses a race.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	for attempt := 1; ; attempt++ {
		err := s.withdraw(ctx, id, amount)
		if err == nil || !retryable(err) || attempt == maxAttempts {
			return err
		}
	}
}

// withdraw checks the balance and debits it in one serializable
// transaction.
func (s *Store) withdraw(ctx context.Context, id, amount int64) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
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

// retryable reports a serialization failure (SQLSTATE 40001) or a
// deadlock (40P01): the transaction may succeed if run again.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}
