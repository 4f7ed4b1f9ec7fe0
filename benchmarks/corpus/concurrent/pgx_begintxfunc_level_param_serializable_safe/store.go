// Package pgx_begintxfunc_level_param_serializable_safe is the account store of a payments
// service on PostgreSQL through a pgx connection pool.
//
// Withdraw runs the check-then-act debit in pgx.BeginTxFunc, whose options
// a helper builds from the isolation level it is passed; the only caller
// passes pgx.Serializable: a racing debit fails with a serialization
// error. (The level was not followed before and the default READ
// COMMITTED was assumed without a word: a false UNSAFE.)
package pgx_begintxfunc_level_param_serializable_safe

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var (
	ErrBadAmount         = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

// Store is the account repository.
type Store struct{ pool *pgxpool.Pool }

func NewStore(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Withdraw debits amount from account id if its balance covers it.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	return s.inTx(ctx, pgx.Serializable, func(tx pgx.Tx) error {
		var balance int64
		if err := tx.QueryRow(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&balance); err != nil {
			return fmt.Errorf("withdraw: %w", err)
		}
		if balance < amount {
			return ErrInsufficientFunds
		}
		_, err := tx.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id)
		return err
	})
}

// inTx runs fn in a transaction at level iso.
func (s *Store) inTx(ctx context.Context, iso pgx.TxIsoLevel, fn func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: iso}, fn)
}
