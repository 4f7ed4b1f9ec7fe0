// Package wallet debits accounts (MySQL). The statement's arguments are
// collected in a slice first, as query builders and logging wrappers do,
// and passed with args...
package wallet

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrInsufficient is returned when the balance does not cover a debit.
var ErrInsufficient = errors.New("insufficient funds")

// Store debits wallet accounts.
type Store struct{ db *sql.DB }

// Debit takes amount from account id if the balance covers it.
func (s *Store) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	args := []any{amount, id, amount}
	res, err := s.db.ExecContext(ctx,
		"UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrInsufficient
	}
	return nil
}

// DebitTagged takes amount from account id, optionally only while the
// account carries a tag; the arguments grow with the filter.
func (s *Store) DebitTagged(ctx context.Context, id, amount int64, tag string) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	query := "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"
	args := []any{amount, id}
	args = append(args, amount)
	if tag != "" {
		query += " AND tag = ?"
		args = append(args, tag)
	}
	_, err := s.db.ExecContext(ctx, query, args...)
	return err
}
