// Package panic_deferred_commit_unsafe debits an account inside a
// transaction that a deferred function commits unless an error was returned.
package panic_deferred_commit_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrInvalidAmount is returned for a non-positive amount.
var ErrInvalidAmount = errors.New("bank: amount must be positive")

const (
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id. An overdraft is a programming error
// upstream, so it panics — but the deferred function sees err == nil while
// the panic unwinds and commits the overdrawn balance.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) (err error) {
	if amt <= 0 {
		return ErrInvalidAmount
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
	var bal int64
	if err = tx.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	mustNotBeOverdrawn(id, bal)
	return nil
}

func mustNotBeOverdrawn(id, bal int64) {
	if bal < 0 {
		panic(fmt.Sprintf("account %d overdrawn: %d", id, bal))
	}
}
