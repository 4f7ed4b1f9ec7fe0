// Package gen_mysql_zero_change_safe is reduced from a program of
// benchmarks/progen (seed 256, MySQL): a settlement credits an amount it
// never loaded (always 0) and stops when the UPDATE reports no row
// affected. MySQL counts changed rows, so the UPDATE always reports 0 and
// the remainder row — possibly negative — is never inserted.
package gen_mysql_zero_change_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

var errNothingToSettle = errors.New("nothing to settle")

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

// Settle credits id with its pending amount, then opens account next
// with the remainder.
func (s *Store) Settle(ctx context.Context, id, next, remainder int64) error {
	var pending int64 // never loaded: the credit is always 0
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + ? WHERE id = ?", pending, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errNothingToSettle
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO accounts (id, balance, hold) VALUES (?, ?, 0)", next, remainder); err != nil {
		return err
	}
	return tx.Commit()
}
