// Package mysql_serializable_pool_read_unsafe is the account store of a
// payments service on MySQL.
//
// The withdrawal's transaction is SERIALIZABLE, but the balance is read
// on the pool before it begins: that read is a statement of its own, a
// consistent read that locks nothing. Two requests both read the balance,
// both pass the check, and both debit it.
package mysql_serializable_pool_read_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrBadAmount         = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw debits amount from account id if its balance covers it.
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	var balance int64
	if err := s.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&balance); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit()
}
