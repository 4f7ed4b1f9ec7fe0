// Package generated_column_safe records spending on a budget whose
// remaining amount is a generated column (see schema.sql), after checking
// what is left.
package generated_column_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrOverBudget = errors.New("budgets: over budget")

const (
	selectRemaining = "SELECT remaining FROM budgets WHERE id = $1 FOR UPDATE"
	addSpent        = "UPDATE budgets SET spent = spent + $1 WHERE id = $2"
)

// Store is the budget repository.
type Store struct{ db *sql.DB }

// Spend records amt spent on budget id when the budget has amt left.
func (s *Store) Spend(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("budgets: bad amount")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var left int64
	if err := tx.QueryRowContext(ctx, selectRemaining, id).Scan(&left); err != nil {
		return err
	}
	if left < amt {
		return ErrOverBudget
	}
	if _, err := tx.ExecContext(ctx, addSpent, amt, id); err != nil {
		return err
	}
	return tx.Commit()
}
