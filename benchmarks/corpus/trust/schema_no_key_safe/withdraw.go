// Package schema_no_key_safe debits a wallet after checking its balance;
// the wallets table (see schema.sql) has id as its primary key.
package schema_no_key_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficientFunds = errors.New("wallets: insufficient funds")

const (
	selectBalance = "SELECT balance FROM wallets WHERE id = ? LIMIT 1"
	debitWallet   = "UPDATE wallets SET balance = balance - ? WHERE id = ?"
)

// Store is the wallet repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from wallet id.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	var bal int64
	if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if bal < amt {
		return ErrInsufficientFunds
	}
	_, err := s.db.ExecContext(ctx, debitWallet, amt, id)
	return err
}
