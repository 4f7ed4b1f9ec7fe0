// Package tx_rollback_safe debits accounts inside a transaction and rolls
// back when the new balance would be negative.
package tx_rollback_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficientFunds = errors.New("accounts: insufficient funds")

const (
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Debit takes amt from account id and returns the new balance. The debit
// is applied first and undone if it overdraws the account.
func (s *Store) Debit(ctx context.Context, id, amt int64) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	if _, err := tx.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return 0, err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return 0, err
	}
	if bal < 0 {
		return 0, ErrInsufficientFunds // the deferred Rollback discards the debit
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return bal, nil
}
