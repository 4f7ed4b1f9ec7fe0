// Package append_failures_safe debits a fee from a batch of accounts, all
// or nothing: it collects the accounts that went below zero and rolls
// back when there is any.
package append_failures_safe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/lib/pq"
)

// Billing charges fees.
type Billing struct{ DB *sql.DB }

// ChargeAll debits fee from every account, or from none.
func (b *Billing) ChargeAll(ctx context.Context, ids []int64, fee int64) error {
	if fee <= 0 {
		return fmt.Errorf("billing: bad fee %d", fee)
	}
	tx, err := b.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var short []int64
	for _, id := range ids {
		var balance int64
		if err := tx.QueryRowContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2 RETURNING balance`, fee, id).Scan(&balance); err != nil {
			return fmt.Errorf("billing: account %d: %w", id, err)
		}
		if balance < 0 {
			short = append(short, id)
		}
	}
	if len(short) > 0 {
		return fmt.Errorf("billing: %d account(s) short: %v", len(short), short)
	}
	return tx.Commit()
}
