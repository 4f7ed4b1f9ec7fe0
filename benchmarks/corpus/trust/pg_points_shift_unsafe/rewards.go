// Package rewards pays points for purchases with the bit arithmetic of a
// payments team: 128 cents to the point.
package rewards

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Reward sets the points to one per 128 cents: a refund (negative cents)
// shifts to a negative number (>> rounds toward -∞), and it is written.
func Reward(ctx context.Context, db *sql.DB, id, cents int64) error {
	q := cents >> 7
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, q, id)
	return err
}

// Double doubles a member's points by a shift: past 2^62 the shift
// wraps into the sign bit.
func Double(ctx context.Context, db *sql.DB, id int64) error {
	var pts int64
	if err := db.QueryRowContext(ctx, `SELECT points FROM members WHERE id = $1`, id).Scan(&pts); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, pts<<1, id)
	return err
}
