// Package conn_begin_text_unsafe runs its transaction as SQL text on one
// connection of the pool (BEGIN / COMMIT / ROLLBACK), as code ported from
// another language often does.
package conn_begin_text_unsafe

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

// Withdraw takes amt from account id unless that overdraws it.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, debitAccount, amt, id); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return err
	}
	var bal int64
	if err := conn.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return err
	}
	if bal < 0 {
		// BUG: reports the overdraft but commits the debit anyway.
		conn.ExecContext(ctx, "COMMIT")
		return ErrInsufficientFunds
	}
	_, err = conn.ExecContext(ctx, "COMMIT")
	return err
}
