// Package pooltx debits in a transaction, then checks the balance through
// the pool (b.q, not qtx): the check reads the committed balance.
package pooltx

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"

	"example.com/readable/pooltx/store"
)

// Billing consumes credits.
type Billing struct {
	db *sql.DB
	q  *store.Queries
}

// Consume debits, then verifies and rolls back on a negative balance.
func (b *Billing) Consume(ctx context.Context, customer, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := b.q.WithTx(tx).Consume(ctx, customer, amount); err != nil {
		return err
	}
	left, err := b.q.Available(ctx, customer)
	if err != nil {
		return err
	}
	if left < 0 {
		return errors.New("not enough credits")
	}
	return tx.Commit()
}
