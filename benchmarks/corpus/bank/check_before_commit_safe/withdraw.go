// Package check_before_commit_safe withdraws cash at a foreign ATM, which
// costs an extra fee.
package check_before_commit_safe

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
	atmFee        = 3
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// WithdrawWithFee takes amt and the ATM fee from account id atomically.
func (s *Store) WithdrawWithFee(ctx context.Context, id, amt int64) error {
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
	if _, err := tx.ExecContext(ctx, debitAccount, atmFee, id); err != nil {
		return err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if bal < 0 {
		if err := tx.Rollback(); err != nil {
			return err
		}
		return ErrInsufficientFunds
	}
	return tx.Commit()
}
