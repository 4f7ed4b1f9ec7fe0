// Package mysql_joint_charge_deadlock_checked_safe charges a joint purchase to two accounts on MySQL.
//
// The same joint charge with the share debit's error returned: the
// deadlock victim (1213) rolls back whole and nothing runs after it. The lock
// order is still deadlock-prone (a warning), the constraint holds.
package mysql_joint_charge_deadlock_checked_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
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
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ? FOR UPDATE", payer).Scan(&balance); err != nil {
		return fmt.Errorf("charge: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	// The partner pays the same amount where their balance covers it.
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", amount, partner, amount); err != nil {
		return fmt.Errorf("charge: partner share: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, payer); err != nil {
		return fmt.Errorf("charge: %w", err)
	}
	return tx.Commit()
}
