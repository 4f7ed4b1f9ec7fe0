// Package accounts keeps accounts in a generic load/modify/save store
// (PostgreSQL): the store's load and save are closures kept in its
// unexported fields, filled by NewAccounts and called by mutate. The only
// public mutation is Withdraw, which takes the amount without looking at the balance.
package accounts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrInsufficient is returned when the balance does not cover a withdrawal.
var ErrInsufficient = errors.New("insufficient funds")

// store loads, mutates and saves values of type T in one transaction.
type store[T any] struct {
	db   *sql.DB
	load func(ctx context.Context, tx *sql.Tx, id int64) (T, error)
	save func(ctx context.Context, tx *sql.Tx, id int64, v T) error
}

// Mutate applies fn to the value with that id.
func (s *store[T]) Mutate(ctx context.Context, id int64, fn func(*T) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	v, err := s.load(ctx, tx, id)
	if err != nil {
		return fmt.Errorf("load %d: %w", id, err)
	}
	if err := fn(&v); err != nil {
		return err
	}
	if err := s.save(ctx, tx, id, v); err != nil {
		return fmt.Errorf("save %d: %w", id, err)
	}
	return tx.Commit()
}

// Account is a row of accounts.
type Account struct {
	Owner   string
	Balance int64
}

// Accounts is the account service.
type Accounts struct{ store *store[Account] }

// NewAccounts wires the store.
func NewAccounts(db *sql.DB) *Accounts {
	return &Accounts{store: &store[Account]{
		db: db,
		load: func(ctx context.Context, tx *sql.Tx, id int64) (Account, error) {
			var a Account
			err := tx.QueryRowContext(ctx, `SELECT owner, balance FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&a.Owner, &a.Balance)
			return a, err
		},
		save: func(ctx context.Context, tx *sql.Tx, id int64, a Account) error {
			_, err := tx.ExecContext(ctx, `UPDATE accounts SET owner = $1, balance = $2 WHERE id = $3`, a.Owner, a.Balance, id)
			return err
		},
	}}
}

// Withdraw takes amount from the account.
func (s *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	return s.store.Mutate(ctx, id, func(a *Account) error {
		a.Balance -= amount
		return nil
	})
}
