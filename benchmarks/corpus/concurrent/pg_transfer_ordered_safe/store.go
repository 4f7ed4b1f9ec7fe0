// Package pg_transfer_ordered_safe moves money between accounts on PostgreSQL.
//
// Transfer that locks both accounts in id order (SELECT ... WHERE id IN ($1,
// $2) ORDER BY id FOR UPDATE, as techschool/simplebank orders its updates)
// before checking the source: no deadlock, and the check is covered by the
// lock.
package pg_transfer_ordered_safe

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
	// Lock both rows in id order, so that two transfers between the same
	// accounts cannot wait for each other.
	rows, err := tx.QueryContext(ctx, "SELECT id FROM accounts WHERE id IN ($1, $2) ORDER BY id FOR UPDATE", fromID, toID)
	if err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	rows.Close()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", fromID).Scan(&balance); err != nil {
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
