// Package scan_fail_keeps_dest_unsafe spends loyalty points; an account
// without a row (or a failed lookup) has no points to spend, but every
// member gets a grace of 50 points.
package scan_fail_keeps_dest_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"log"
)

var ErrNotEnoughPoints = errors.New("loyalty: not enough points")

const (
	selectPoints = "SELECT points FROM loyalty WHERE id = ?"
	spendPoints  = "UPDATE loyalty SET points = points - ? WHERE id = ?"
)

// Ledger is the loyalty-points store.
type Ledger struct{ db *sql.DB }

// Spend takes n points from member.
func (l *Ledger) Spend(ctx context.Context, member, n int64) error {
	if n <= 0 {
		return errors.New("loyalty: bad amount")
	}
	points := int64(0)
	if err := l.db.QueryRowContext(ctx, selectPoints, member).Scan(&points); err != nil {
		log.Printf("loyalty: member %d: %v (treated as 0 points)", member, err)
	}
	const grace = 50 // BUG: the grace is taken from the stored points
	if points+grace < n {
		return ErrNotEnoughPoints
	}
	_, err := l.db.ExecContext(ctx, spendPoints, n, member)
	return err
}
