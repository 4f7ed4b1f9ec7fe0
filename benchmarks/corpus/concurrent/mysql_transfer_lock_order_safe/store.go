// Package mysql_transfer_lock_order_safe moves money between accounts on MySQL.
//
// Deadlock-prone lock order on MySQL: transfers in opposite directions lock
// their source rows and then wait for each other's; InnoDB rolls one back
// (1213). The balance constraint holds: the locked check covers the debit
// and the victim rolls back.
package mysql_transfer_lock_order_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrBadTransfer       = errors.New("transfer: amount must be positive and the accounts distinct")
	ErrInsufficientFunds = errors.New("transfer: insufficient funds")
)

// Bank is the account store.
type Bank struct{ db *sql.DB }

func NewBank(db *sql.DB) *Bank { return &Bank{db: db} }

// Transfer moves amount from account fromID to account toID.
func (b *Bank) Transfer(ctx context.Context, fromID, toID, amount int64) error {
	if amount <= 0 || fromID == toID {
		return ErrBadTransfer
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ? FOR UPDATE", fromID).Scan(&balance); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, fromID); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, toID); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	return tx.Commit()
}
