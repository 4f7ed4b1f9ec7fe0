// Package gen_pg_zero_change_unsafe is reduced from a program of
// benchmarks/progen (seed 256), on PostgreSQL: a settlement credits an amount it
// never loaded (always 0) and stops when the UPDATE reports no row
// affected. PostgreSQL counts matched rows: the UPDATE reports 1 for an
// existing account, and a negative remainder is inserted.
package gen_pg_zero_change_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

var errNothingToSettle = errors.New("nothing to settle")

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

// Settle credits id with its pending amount, then opens account next
// with the remainder.
func (s *Store) Settle(ctx context.Context, id, next, remainder int64) error {
	var pending int64 // never loaded: the credit is always 0
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", pending, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errNothingToSettle
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO accounts (id, balance, hold) VALUES ($1, $2, 0)", next, remainder); err != nil {
		return err
	}
	return tx.Commit()
}
