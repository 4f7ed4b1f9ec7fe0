// Package pgxnative debits through pgxpool without a check.
package pgxnative

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Withdraw debits amount.
func Withdraw(ctx context.Context, pool *pgxpool.Pool, id, amount int64) error {
	if amount <= 0 {
		return nil
	}
	_, err := pool.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id)
	return err
}
