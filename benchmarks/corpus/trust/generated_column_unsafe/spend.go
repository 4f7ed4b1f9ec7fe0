// Package generated_column_unsafe records spending on a budget whose
// remaining amount is a generated column (see schema.sql).
package generated_column_unsafe

import (
	"context"
	"database/sql"
)

const addSpent = "UPDATE budgets SET spent = spent + $1 WHERE id = $2"

// Store is the budget repository.
type Store struct{ db *sql.DB }

// Spend records amt spent on budget id.
// BUG: nothing checks that the budget has amt left.
func (s *Store) Spend(ctx context.Context, id, amt int64) error {
	_, err := s.db.ExecContext(ctx, addSpent, amt, id)
	return err
}
