// Package global_sql_var_unsafe keeps its SQL in package-level variables.
package global_sql_var_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

// ErrInvalidAmount is returned for a non-positive amount.
var ErrInvalidAmount = errors.New("bank: amount must be positive")

var (
	debitAccount = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	auditInsert  = "INSERT INTO audit (account_id, amount) VALUES (?, ?)"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id. Bug: no balance check.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	if _, err := s.db.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, auditInsert, id, amt)
	return err
}
