// Package gen_mysql_repeat_write_safe is reduced from a program of
// benchmarks/progen (seed 1113, MySQL): a reset writes the account's
// balance to the same value twice (a statement duplicated by a
// refactoring) and stops when a write reports no row affected. MySQL counts
// changed rows: the second write never changes the row, so the reset
// always stops there, before its fee.
package gen_mysql_repeat_write_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

var errNotFound = errors.New("account not found")

// Store keeps accounts in MySQL.
type Store struct{ db *sql.DB }

// Open opens the store's database.
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("mysql", dsn)
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
		res, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = ? WHERE id = ?", start, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errNotFound
		}
	}
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", fee, id)
	return err
}
