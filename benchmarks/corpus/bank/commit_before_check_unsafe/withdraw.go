// Package commit_before_check_unsafe withdraws money and compensates when
// the account turns out to be overdrawn.
package commit_before_check_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount     = errors.New("bank: amount must be positive")
	ErrInsufficientFunds = errors.New("bank: insufficient funds")
)

const (
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	creditAccount = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	insertLedger  = "INSERT INTO ledger (account_id, delta) VALUES (?, ?)"
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id. The debit and its ledger entry are
// committed together; an overdraft is undone afterwards.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, insertLedger, id, -amt); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}

	var bal int64
	if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if bal < 0 {
		if _, err := s.db.ExecContext(ctx, creditAccount, amt, id); err != nil {
			return err
		}
		return ErrInsufficientFunds
	}
	return nil
}
