// Package pgfallback charges a joint purchase to two accounts on PostgreSQL.
//
// Deadlock victim's error path on PostgreSQL: Charge locks the payer's row
// (FOR UPDATE), checks its balance, then takes the partner's share with a
// guarded debit of the partner's row, and debits the payer. Two charges with
// the accounts swapped lock in opposite orders and deadlock; PostgreSQL fails
// one share debit with 40P01, which aborts that transaction and releases its
// lock on the payer at once. The code then charges the payer alone on the
// pool, outside the failed transaction, with the balance it checked under the
// lock it no longer holds: the other charge's share debit of that row has run
// meanwhile, and the balance ends below zero.
package pgfallback

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
)

var (
	ErrBadCharge         = errors.New("charge: amount must be positive and the accounts distinct")
	ErrInsufficientFunds = errors.New("charge: insufficient funds")
)

// Charges is the account store.
type Charges struct{ db *sql.DB }

func NewCharges(db *sql.DB) *Charges { return &Charges{db: db} }

// Charge takes amount from the payer's account and, where it can, the same
// amount from the partner's.
func (c *Charges) Charge(ctx context.Context, payer, partner, amount int64) error {
	if amount <= 0 || payer == partner {
		return ErrBadCharge
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("charge: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", payer).Scan(&balance); err != nil {
		return fmt.Errorf("charge: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	// The partner pays the same amount where their balance covers it. If
	// that fails, the payer is charged alone, on its own: its balance was
	// checked above.
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, partner); err != nil {
		log.Printf("charge: partner share: %v", err)
		if _, err := c.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, payer); err != nil {
			return fmt.Errorf("charge: %w", err)
		}
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, payer); err != nil {
		return fmt.Errorf("charge: %w", err)
	}
	return tx.Commit()
}
