// Package gen_insert_same_key_safe is reduced from a program of
// benchmarks/progen (seed 135): an account is opened with its deposit,
// then a "correction" row is inserted under the same id — which the
// primary key refuses every time, so the transaction never commits the
// correction's negative hold.
package gen_insert_same_key_safe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Store keeps accounts in SQLite.
type Store struct{ db *sql.DB }

// Open opens the store's database.
func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// OpenAccount inserts account id with deposit, then its correction row.
func (s *Store) OpenAccount(ctx context.Context, id, deposit, correction int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO accounts (id, balance, hold) VALUES (?, ?, 0)", id, deposit); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO accounts (id, balance, hold) VALUES (?, 0, ?)", id, -correction); err != nil {
		return err // always: id is taken by the row above
	}
	return tx.Commit()
}
