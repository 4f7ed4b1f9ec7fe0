// Package global_sql_var_safe keeps its SQL in package-level variables.
package global_sql_var_safe

import (
	"context"
	"database/sql"
	"errors"
)

// ErrInvalidAmount is returned for a non-positive amount.
var ErrInvalidAmount = errors.New("bank: amount must be positive")

var (
	debitAccount = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"
	auditInsert  = "INSERT INTO audit (account_id, amount) VALUES (?, ?)"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id where the balance covers it.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	if _, err := s.db.ExecContext(ctx, debitAccount, amt, id, amt); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, auditInsert, id, amt)
	return err
}
