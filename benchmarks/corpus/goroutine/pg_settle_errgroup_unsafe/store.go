// Package pg_settle_errgroup_unsafe settles an invoice on PostgreSQL: the
// debit and the invoice update run in parallel under an errgroup.
//
// The debit goroutine subtracts the amount without checking the balance:
// one call with an amount above the balance leaves it negative. The two
// goroutines touch no common cell, so they commute, and the debit's own
// write is checked as if it ran at g.Go.
package pg_settle_errgroup_unsafe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
	"golang.org/x/sync/errgroup"
)

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
		if _, err := b.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, accountID); err != nil {
			return fmt.Errorf("debit: %w", err)
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
