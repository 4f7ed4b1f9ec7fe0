// Package guard_helper_pkg_unsafe debits accounts using the shared rules package.
package guard_helper_pkg_unsafe

import (
	"context"
	"database/sql"
	"errors"

	"example.com/corpus/core/guard_helper_pkg_unsafe/rules"
)

var ErrRejected = errors.New("accounts: withdrawal rejected")

const (
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// NewStore returns a Store backed by db.
func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw debits amt from account id if the business rules allow it.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	var bal int64
	if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if !rules.CanWithdraw(bal, amt) {
		return ErrRejected
	}
	_, err := s.db.ExecContext(ctx, debitAccount, amt, id)
	return err
}
