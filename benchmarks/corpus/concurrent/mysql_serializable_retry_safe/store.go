// Package mysql_serializable_retry_safe is the account store of a payments service on
// MySQL that runs its transactions at SERIALIZABLE.
//
// MySQL SERIALIZABLE with a retry loop on deadlock (1213) and lock wait
// timeout (1205): the racing withdrawals deadlock on their shared locks, the
// victim runs again and re-reads the balance.
package mysql_serializable_retry_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/go-sql-driver/mysql"
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

// retryable reports a deadlock (1213) or a lock wait timeout (1205): the
// transaction may succeed if run again.
func retryable(err error) bool {
	var myErr *mysql.MySQLError
	return errors.As(err, &myErr) && (myErr.Number == 1213 || myErr.Number == 1205)
}
