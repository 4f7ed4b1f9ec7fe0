// Package select_star_schema_safe reads the whole account row with SELECT * and
// debits it when the balance covers the amount; the schema gives the columns of *
package select_star_schema_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficientFunds = errors.New("accounts: insufficient funds")

const (
	selectAccount = "SELECT * FROM accounts WHERE id = ? FOR UPDATE"
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Account is one row of accounts (columns id, owner, balance).
type Account struct {
	ID      int64
	Owner   string
	Balance int64
}

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var a Account
	if err := tx.QueryRowContext(ctx, selectAccount, id).Scan(&a.ID, &a.Owner, &a.Balance); err != nil {
		return err
	}
	if a.Balance < amt {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return err
	}
	return tx.Commit()
}
