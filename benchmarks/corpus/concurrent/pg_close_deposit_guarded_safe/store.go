// Package pg_close_deposit_guarded_safe is the account store of a bank on PostgreSQL: an account
// is closed only when empty, and a closed account takes no deposit.
//
// Close and Deposit as single guarded UPDATEs (WHERE balance = 0 / WHERE
// closed = 0) with RowsAffected checked: at READ COMMITTED the waiting
// UPDATE re-evaluates its guard on the committed row (EvalPlanQual).
package pg_close_deposit_guarded_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
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
	res, err := s.db.ExecContext(ctx, "UPDATE accounts SET closed = 1 WHERE id = $1 AND balance = 0", id)
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
	res, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2 AND closed = 0", amount, id)
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
