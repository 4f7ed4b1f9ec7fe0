// Package sqlite_split_insert_select_safe carves an earmark out of a
// department budget: the earmark row is copied from the budget with
// INSERT … SELECT (SQLite, modernc.org/sqlite).
package sqlite_split_insert_select_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var errInsufficient = errors.New("budget too small")

type Budgets struct{ db *sql.DB }

func NewBudgets(db *sql.DB) *Budgets { return &Budgets{db: db} }

// Earmark reserves amount of budget id for purpose; the charge is guarded.
func (b *Budgets) Earmark(ctx context.Context, id, amount int64, purpose string) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx,
		`INSERT INTO earmarks (budget_id, dept, purpose, amount) SELECT id, dept, ?, ? FROM budgets WHERE id = ? AND amount >= ?`,
		purpose, amount, id, amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errInsufficient
	}
	res, err = tx.ExecContext(ctx, `UPDATE budgets SET amount = amount - ? WHERE id = ? AND amount >= ?`, amount, id, amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errInsufficient
	}
	return tx.Commit()
}

// EarmarkTrusting relies on the copy's filter (amount >= ?): when it
// copied a row, the budget held the amount. Correct, but the model does
// not follow the SELECT of INSERT … SELECT, so the row count is an
// approximation.
func (b *Budgets) EarmarkTrusting(ctx context.Context, id, amount int64, purpose string) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx,
		`INSERT INTO earmarks (budget_id, dept, purpose, amount) SELECT id, dept, ?, ? FROM budgets WHERE id = ? AND amount >= ?`,
		purpose, amount, id, amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errInsufficient
	}
	if _, err := tx.ExecContext(ctx, `UPDATE budgets SET amount = amount - ? WHERE id = ?`, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
