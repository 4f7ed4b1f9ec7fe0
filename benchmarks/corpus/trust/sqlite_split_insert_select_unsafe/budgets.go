// Package sqlite_split_insert_select_unsafe carves an earmark out of a
// department budget: the earmark row is copied from the budget with
// INSERT … SELECT (SQLite, modernc.org/sqlite).
package sqlite_split_insert_select_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

type Budgets struct{ db *sql.DB }

func NewBudgets(db *sql.DB) *Budgets { return &Budgets{db: db} }

// Earmark reserves amount of budget id for purpose. Bug: neither the copy
// nor the charge checks that the budget holds the amount.
func (b *Budgets) Earmark(ctx context.Context, id, amount int64, purpose string) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO earmarks (budget_id, dept, purpose, amount) SELECT id, dept, ?, ? FROM budgets WHERE id = ?`,
		purpose, amount, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE budgets SET amount = amount - ? WHERE id = ?`, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
