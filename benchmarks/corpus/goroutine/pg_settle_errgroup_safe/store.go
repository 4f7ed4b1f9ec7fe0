// Package pg_settle_errgroup_safe settles an invoice on PostgreSQL: the
// debit and the invoice update run in parallel under an errgroup.
//
// The debit is a guarded UPDATE whose RowsAffected is checked; the other
// goroutine marks the invoice paid (another table). The two goroutines
// touch no common cell, so they commute.
package pg_settle_errgroup_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
	"golang.org/x/sync/errgroup"
)

var ErrInsufficientFunds = errors.New("settle: insufficient funds")

// Billing settles invoices.
type Billing struct{ db *sql.DB }

func NewBilling(db *sql.DB) *Billing { return &Billing{db: db} }

// Settle pays invoice invoiceID of amount from account accountID.
func (b *Billing) Settle(ctx context.Context, accountID, invoiceID, amount int64) error {
	if amount <= 0 {
		return fmt.Errorf("settle: amount %d must be positive", amount)
	}
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		res, err := b.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, accountID)
		if err != nil {
			return fmt.Errorf("debit: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("debit: %w", err)
		} else if n != 1 {
			return ErrInsufficientFunds
		}
		return nil
	})
	g.Go(func() error {
		if _, err := b.db.ExecContext(ctx, "UPDATE invoices SET paid = true WHERE id = $1", invoiceID); err != nil {
			return fmt.Errorf("mark paid: %w", err)
		}
		return nil
	})
	return g.Wait()
}
