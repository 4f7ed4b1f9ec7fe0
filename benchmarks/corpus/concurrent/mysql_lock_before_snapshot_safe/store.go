// Package mysql_lock_before_snapshot_safe is the account store of a
// payments service on MySQL.
//
// Withdraw locks the account row with SELECT … FOR UPDATE before any
// plain read, then reads the user's daily limit and the balance with plain
// SELECTs. Under InnoDB's default REPEATABLE READ the first plain read (of
// users) takes the transaction's snapshot while the account row is locked:
// the snapshot holds the row's newest committed balance, and nobody can
// change it until the transaction ends, so the balance read from the
// snapshot is the locked row's. (The same code with the lock after the
// first plain read is mysql_snapshot_before_lock_unsafe.)
package mysql_lock_before_snapshot_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

// ErrDeclined is returned when the amount is refused.
var ErrDeclined = errors.New("accounts: declined")

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw debits amount from account if the user's limit and the
// balance allow it.
func (s *Store) Withdraw(ctx context.Context, user, account, amount int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	defer tx.Rollback()
	var limit, id, balance int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM accounts WHERE id = ? FOR UPDATE", account).Scan(&id); err != nil {
		return fmt.Errorf("withdraw: lock: %w", err)
	}
	if err := tx.QueryRowContext(ctx, "SELECT daily_limit FROM users WHERE id = ?", user).Scan(&limit); err != nil {
		return fmt.Errorf("withdraw: limit: %w", err)
	}
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", account).Scan(&balance); err != nil {
		return fmt.Errorf("withdraw: balance: %w", err)
	}
	if amount <= 0 || amount > limit || balance < amount {
		return ErrDeclined
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, account); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit()
}
