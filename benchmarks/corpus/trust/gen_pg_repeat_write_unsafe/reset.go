// Package gen_pg_repeat_write_unsafe is reduced from a program of
// benchmarks/progen (seed 1113), on PostgreSQL: a reset writes the account's
// balance to the same value twice (a statement duplicated by a
// refactoring) and stops when a write reports no row affected. PostgreSQL
// counts matched rows, so both writes report 1 and the fee is charged:
// below zero when it exceeds start.
package gen_pg_repeat_write_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

var errNotFound = errors.New("account not found")

// Store keeps accounts in PostgreSQL.
type Store struct{ db *sql.DB }

// Open opens the store's database.
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// Reset sets the balance of account id to start, then charges fee.
func (s *Store) Reset(ctx context.Context, id, start, fee int64) error {
	if start < 0 {
		return errors.New("start must not be negative")
	}
	for i := 0; i < 2; i++ {
		res, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", start, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errNotFound
		}
	}
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", fee, id)
	return err
}
