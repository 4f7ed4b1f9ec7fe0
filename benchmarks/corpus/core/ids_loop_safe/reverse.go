// Package ids_loop_safe reverses promotional credits in bulk.
package ids_loop_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInvalidAmount = errors.New("promo: amount must be positive")

const reverseIfCovered = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"

// ReverseCredits takes back a promotional credit of amt from each account
// in ids that still holds it, and returns how many were reversed.
func ReverseCredits(ctx context.Context, db *sql.DB, ids []int64, amt int64) (int, error) {
	if amt <= 0 {
		return 0, ErrInvalidAmount
	}
	reversed := 0
	for _, id := range ids {
		res, err := db.ExecContext(ctx, reverseIfCovered, amt, id, amt)
		if err != nil {
			return reversed, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return reversed, err
		}
		if n > 0 {
			reversed++
		}
	}
	return reversed, nil
}
