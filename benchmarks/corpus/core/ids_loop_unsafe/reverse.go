// Package ids_loop_unsafe reverses promotional credits in bulk.
package ids_loop_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var ErrInvalidAmount = errors.New("promo: amount must be positive")

const reverseCredit = "UPDATE accounts SET balance = balance - ? WHERE id = ?"

// ReverseCredits takes back a promotional credit of amt from each account
// in ids.
func ReverseCredits(ctx context.Context, db *sql.DB, ids []int64, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	for _, id := range ids {
		if _, err := db.ExecContext(ctx, reverseCredit, amt, id); err != nil {
			return fmt.Errorf("reverse credit on %d: %w", id, err)
		}
	}
	return nil
}
