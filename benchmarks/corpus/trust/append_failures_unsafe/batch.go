// Package append_failures_unsafe debits a fee from a batch of accounts: it
// collects the accounts that could pay and commits when at least one
// did, with the others' debits (below zero) in the same transaction.
package append_failures_unsafe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/lib/pq"
)

// Billing charges fees.
type Billing struct{ DB *sql.DB }

// ChargeAll debits fee from every account when one can pay.
func (b *Billing) ChargeAll(ctx context.Context, ids []int64, fee int64) error {
	if fee <= 0 {
		return fmt.Errorf("billing: bad fee %d", fee)
	}
	tx, err := b.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var paid []int64
	for _, id := range ids {
		var balance int64
		if err := tx.QueryRowContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2 RETURNING balance`, fee, id).Scan(&balance); err != nil {
			return fmt.Errorf("billing: account %d: %w", id, err)
		}
		if balance >= 0 {
			paid = append(paid, id)
		}
	}
	if len(paid) == 0 {
		return fmt.Errorf("billing: no account could pay")
	}
	return tx.Commit()
}
