// Package pg_transfer_lock_order_safe moves money between accounts on PostgreSQL.
//
// Deadlock-prone lock order: Transfer locks the source row (FOR UPDATE) and
// then updates the destination, so transfers 1->2 and 2->1 can wait for each
// other; Postgres breaks the deadlock by failing one with 40P01. The balance
// constraint still holds: the source row is locked from the check to the
// commit, and the failed transfer rolls back (the deadlock is a warning of
// its own, P5).
package pg_transfer_lock_order_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
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
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", fromID).Scan(&balance); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, fromID); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, toID); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	return tx.Commit()
}
