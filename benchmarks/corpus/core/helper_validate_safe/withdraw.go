// Package helper_validate_safe implements withdrawals with the business
// rules factored into a validation helper.
package helper_validate_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var (
	ErrInvalidAmount     = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

const (
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// checkAmount validates a withdrawal of amt from an account holding bal.
func checkAmount(amt, bal int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	if amt > bal {
		return fmt.Errorf("%w: need %d, have %d", ErrInsufficientFunds, amt, bal)
	}
	return nil
}

// Withdraw debits amt from account id.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	var bal int64
	if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if err := checkAmount(amt, bal); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, debitAccount, amt, id)
	return err
}
