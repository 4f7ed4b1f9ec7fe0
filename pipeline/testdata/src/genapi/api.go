// Package genapi calls a generated query that package gen does not.
package genapi

import (
	"context"

	"example.com/pl/gen"
)

// Refund refunds a positive amount.
func Refund(ctx context.Context, q *gen.Queries, id, amount int64) error {
	if amount <= 0 {
		return nil
	}
	return q.Refund(ctx, id, amount)
}
