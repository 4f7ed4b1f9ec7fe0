// Package rewards pays points for purchases with the bit arithmetic of a
// payments team: 128 cents to the point, tiers from the low byte.
package rewards

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Reward sets the points to one per 128 cents, plus 100: q <= 2^56, so
// q + 100 does not wrap.
func Reward(ctx context.Context, db *sql.DB, id, cents int64) error {
	q := cents >> 7
	if q <= 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, q+100, id)
	return err
}

// Tier sets the points to the purchase's tier, its low byte: 0 … 255
// whatever the sign of cents.
func Tier(ctx context.Context, db *sql.DB, id, cents int64) error {
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, cents&0xff, id)
	return err
}

// Restore undoes a penalty stored as a complement: ^p of a negative p is
// -p-1, never negative.
func Restore(ctx context.Context, db *sql.DB, id, penalty int64) error {
	if penalty >= 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, ^penalty, id)
	return err
}

// Flag sets the points to the purchase with its lowest bit set (an odd
// number marks a promotional award): at least 1 for cents >= 0.
func Flag(ctx context.Context, db *sql.DB, id, cents int64) error {
	if cents < 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, cents|1, id)
	return err
}
