// Package wallet keeps accounts in PostgreSQL and a replica of them in a
// local SQLite file for offline use. Each handle is opened with its own
// driver; the SQL run on each is written in that database's dialect.
package wallet

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
	_ "modernc.org/sqlite"
)

// ErrInsufficient is returned when the balance does not cover a debit.
var ErrInsufficient = errors.New("insufficient funds")

// Store debits accounts online (remote) or offline (local).
type Store struct {
	remote *sql.DB // PostgreSQL
	local  *sql.DB // SQLite replica
}

// Open opens both databases.
func Open(dsn, path string) (*Store, error) {
	remote, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	local, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	return &Store{remote: remote, local: local}, nil
}

// Withdraw debits account id in PostgreSQL if the balance covers amount.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	// BUG: only an empty account is refused.
	res, err := s.remote.ExecContext(ctx,
		"UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance > 0", amount, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrInsufficient
	}
	return nil
}

// WithdrawOffline debits the local replica (SQLite's ?NNN placeholders).
func (s *Store) WithdrawOffline(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	// BUG: the replica is debited without a balance guard.
	res, err := s.local.ExecContext(ctx,
		"UPDATE accounts SET balance = balance - ?1 WHERE id = ?2", amount, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrInsufficient
	}
	return nil
}

// Refund credits account id on the database it is given (either).
func Refund(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, id)
	return err
}
