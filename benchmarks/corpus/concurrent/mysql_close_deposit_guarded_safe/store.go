// Package mysql_close_deposit_guarded_safe is the account store of a bank on MySQL: an account
// is closed only when empty, and a closed account takes no deposit.
//
// Close and Deposit as guarded UPDATEs with RowsAffected checked on MySQL:
// the UPDATE's current read re-evaluates the guard on the latest row.
package mysql_close_deposit_guarded_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrBadAmount = errors.New("accounts: amount must be positive")
	ErrNotEmpty  = errors.New("accounts: the balance is not zero")
	ErrClosed    = errors.New("accounts: account closed")
)

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Close closes account id; only an empty account can be closed.
func (s *Store) Close(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, "UPDATE accounts SET closed = 1 WHERE id = ? AND balance = 0", id)
	if err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("close: %w", err)
	} else if n != 1 {
		return ErrNotEmpty
	}
	return nil
}

// Deposit credits amount to account id unless it is closed.
func (s *Store) Deposit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	res, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + ? WHERE id = ? AND closed = 0", amount, id)
	if err != nil {
		return fmt.Errorf("deposit: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("deposit: %w", err)
	} else if n != 1 {
		return ErrClosed
	}
	return nil
}
