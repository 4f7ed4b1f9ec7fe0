// Package sqlite_wrapper_iface_unsafe debits through a decorator that
// wraps another implementation of its interface.
package sqlite_wrapper_iface_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite"
)

// Debiter takes an amount from an account.
type Debiter interface {
	Debit(ctx context.Context, id, amount int64) error
}

// Audited wraps another Debiter.
type Audited struct{ Inner Debiter }

// Debit checks the amount and passes the debit on.
func (a *Audited) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	if err := a.Inner.Debit(ctx, id, amount); err != nil {
		return fmt.Errorf("audited: %w", err)
	}
	return nil
}

// Plain debits the account. Bug: nothing compares the balance with the
// amount.
type Plain struct{ DB *sql.DB }

// Debit takes amount from account id.
func (p *Plain) Debit(ctx context.Context, id, amount int64) error {
	_, err := p.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}
