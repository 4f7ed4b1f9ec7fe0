// Package ledger applies named account operations (MySQL). Apply
// validates the request and hands it to an unexported dispatcher that
// looks the operation up in a table of functions.
package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
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
	return s.dispatch(ctx, op, id, amount)
}

// dispatch runs the named operation; the amount is validated by Apply.
func (s *Store) dispatch(ctx context.Context, op string, id, amount int64) error {
	ops := map[string]func(ctx context.Context, id, amount int64) error{
		"credit": s.credit,
		"debit": func(ctx context.Context, id, amount int64) error {
			// BUG: only an empty account is refused; a debit larger than
			// a positive balance overdraws it.
			res, err := s.db.ExecContext(ctx,
				"UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance > 0", amount, id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return ErrInsufficient
			}
			return nil
		},
	}
	run, ok := ops[op]
	if !ok {
		return fmt.Errorf("unknown operation %q", op)
	}
	return run(ctx, id, amount)
}

func (s *Store) credit(ctx context.Context, id, amount int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, id)
	return err
}
