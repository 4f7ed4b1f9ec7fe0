// Package pg_serializable_retry_stale_unsafe is the account store of a payments service on
// PostgreSQL that runs its transactions at SERIALIZABLE.
//
// SERIALIZABLE with a wrong retry: when the checked transaction fails with a
// serialization error, Withdraw retries only the debit, in a new
// transaction, without re-checking the balance. Two withdrawals of 100 from
// 100: the second fails with 40001 at its UPDATE and then debits the
// committed 0 to -100.
package pg_serializable_retry_stale_unsafe

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

// Withdraw debits amount from account id if its balance covers it.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	err := s.withdraw(ctx, id, amount)
	if retryable(err) {
		// The balance was checked; only the debit lost the race, so apply
		// the debit again.
		return s.debit(ctx, id, amount)
	}
	return err
}

// debit applies the debit alone, in its own serializable transaction.
func (s *Store) debit(ctx context.Context, id, amount int64) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit()
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
