// Package panic_index_commit_safe charges a withdrawal plus a tier fee in
// one transaction, committed by a deferred "commit unless err" function.
package panic_index_commit_safe

import (
	"context"
	"database/sql"
	"errors"
)

// ErrInsufficientFunds is returned when the account cannot cover amt + fee.
var ErrInsufficientFunds = errors.New("bank: insufficient funds")

// ErrUnknownTier is returned for a tier without a fee.
var ErrUnknownTier = errors.New("bank: unknown tier")

const (
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw debits amt, then the fee of the customer's tier, and checks the
// balance before returning. An unknown tier is rejected before the
// transaction starts, so fees[tier] cannot panic.
func (s *Store) Withdraw(ctx context.Context, id, amt int64, tier int) (err error) {
	fees := [3]int64{0, 1, 5}
	if tier < 0 || tier >= len(fees) {
		return ErrUnknownTier
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
			return
		}
		err = tx.Commit()
	}()
	if _, err = tx.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return err
	}
	fee := fees[tier]
	if _, err = tx.ExecContext(ctx, debitAccount, fee, id); err != nil {
		return err
	}
	var bal int64
	if err = tx.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if bal < 0 {
		return ErrInsufficientFunds
	}
	return nil
}
