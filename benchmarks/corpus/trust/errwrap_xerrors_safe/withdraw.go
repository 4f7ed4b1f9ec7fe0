// Package errwrap_xerrors_safe withdraws money with errors built by
// golang.org/x/xerrors and fmt.Errorf.
package errwrap_xerrors_safe

import (
	"context"
	"database/sql"

	"fmt"

	"golang.org/x/xerrors"
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
		return xerrors.Errorf("read balance: %w", err)
	}
	if bal < amt {
		return xerrors.Errorf("account %d: insufficient funds", id)
	}
	return nil
}

// Withdraw takes amt from account id.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return xerrors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if err := checkFunds(ctx, tx, id, amt); err != nil {
		return xerrors.Errorf("withdraw: %w", err)
	}
	if _, err := tx.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return xerrors.Errorf("debit: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return xerrors.Errorf("commit: %w", err)
	}
	return nil
}
