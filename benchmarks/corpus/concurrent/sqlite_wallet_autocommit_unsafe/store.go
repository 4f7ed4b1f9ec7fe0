// Package sqlite_wallet_autocommit_unsafe is the wallet of a desktop app
// on an embedded SQLite database.
//
// Check-then-act without a transaction: the SELECT of the balance and the
// debit each commit on their own. Two withdrawals of 100 from 100 both
// read 100 and pass the check; both debits run: -100. SQLite's
// serializable transactions do not help statements that are transactions
// of their own.
package sqlite_wallet_autocommit_unsafe

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

// Spend debits amount from account id if its balance covers it.
func (s *Store) Spend(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	var balance int64
	if err := s.db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&balance); err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id); err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	return nil
}
