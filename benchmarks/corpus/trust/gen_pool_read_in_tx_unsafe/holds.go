// Package gen_pool_read_in_tx_unsafe is reduced from a program of
// benchmarks/progen (seed 126): a capture moves an amount out of an
// account inside a transaction, then copies the account's hold as the
// pool sees it — the committed row, not the transaction's — onto a
// second account, less the amount (no guard).
package gen_pool_read_in_tx_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var errRejected = errors.New("rejected")

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

// Capture takes amount from account id (never below zero) and gives
// account to the hold id has (committed), less the amount: below zero
// when the hold is smaller than the amount.
func (s *Store) Capture(ctx context.Context, id, to, amount int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", amount, id, amount)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errRejected
	}
	// Read through the pool: the committed row, which the transaction's
	// UPDATE has not changed yet.
	var hold int64
	if err := s.db.QueryRowContext(ctx, "SELECT hold FROM accounts WHERE id = ?", id).Scan(&hold); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET hold = ? WHERE id = ?", hold-amount, to); err != nil {
		return err
	}
	return tx.Commit()
}
