// Package mysql_joint_charge_deadlock_ignored_unsafe charges a joint purchase to two accounts on MySQL.
//
// Deadlock victim's error path on MySQL/MariaDB: Charge locks the payer's row
// (FOR UPDATE), checks its balance, takes the partner's share with a guarded
// debit of the partner's row (its error only logged: the share is best
// effort) and debits the payer. Two charges with the accounts swapped lock in
// opposite orders and deadlock; InnoDB fails one share debit with 1213 and
// rolls its whole transaction back, releasing the payer's lock. The code goes
// on: its debit of the payer now runs on the same connection in autocommit,
// with the balance it checked under the lock it no longer holds, after the
// other charge's share debit of that row: the balance ends below zero.
package mysql_joint_charge_deadlock_ignored_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"

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
	// The partner pays the same amount where their balance covers it; the
	// share is best effort, a failure is only logged.
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", amount, partner, amount); err != nil {
		log.Printf("charge: partner share: %v", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, payer); err != nil {
		return fmt.Errorf("charge: %w", err)
	}
	return tx.Commit()
}
