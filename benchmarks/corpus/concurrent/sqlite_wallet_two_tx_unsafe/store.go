// Package sqlite_wallet_two_tx_unsafe is the wallet of a desktop app on
// an embedded SQLite database.
//
// The check and the debit in two transactions: a read-only transaction
// reads the balance and ends, then a second one debits. Each transaction
// is serializable, the request is not: two withdrawals of 100 from 100
// both read 100 in their first transactions, then both debit: -100.
package sqlite_wallet_two_tx_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite"
)

var (
	ErrBadAmount         = errors.New("wallet: amount must be positive")
	ErrInsufficientFunds = errors.New("wallet: insufficient funds")
)

// Store is the wallet repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Open opens the wallet file with a busy timeout.
func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(2000)")
	if err != nil {
		return nil, fmt.Errorf("open wallet: %w", err)
	}
	return NewStore(db), nil
}

// balance reads the balance of account id in a read-only transaction.
func (s *Store) balance(ctx context.Context, id int64) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var b int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&b); err != nil {
		return 0, err
	}
	return b, tx.Commit()
}

// Spend debits amount from account id if its balance covers it.
func (s *Store) Spend(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	balance, err := s.balance(ctx, id)
	if err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id); err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	return tx.Commit()
}
