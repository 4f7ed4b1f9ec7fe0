// Package errwrap_pkg_safe withdraws money with errors built by
// github.com/pkg/errors.
package errwrap_pkg_safe

import (
	"context"
	"database/sql"

	"github.com/pkg/errors"
)

const (
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// checkFunds fails unless account id can pay amt.
func checkFunds(ctx context.Context, tx *sql.Tx, id, amt int64) error {
	var bal int64
	err := tx.QueryRowContext(ctx, selectBalance, id).Scan(&bal)
	if err != nil {
		return errors.Wrap(err, "read balance")
	}
	if bal < amt {
		return errors.Errorf("account %d: insufficient funds", id)
	}
	return nil
}

// Withdraw takes amt from account id.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return errors.WithStack(err)
	}
	defer tx.Rollback()
	if err := checkFunds(ctx, tx, id, amt); err != nil {
		return errors.WithMessage(err, "withdraw")
	}
	if _, err := tx.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return errors.Wrap(err, "debit")
	}
	return errors.Wrap(tx.Commit(), "commit")
}
