// Package loyalty awards points for purchases: one point per whole
// currency unit spent, plus a welcome bonus.
package loyalty

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Bonus is the points every award adds on top of the purchase's.
const Bonus = 100

// Award sets a member's points to the purchase's units plus the bonus:
// units is at most MaxInt64/100, so units + Bonus cannot wrap.
func Award(ctx context.Context, db *sql.DB, id, cents int64) error {
	units := cents / 100
	if units <= 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, units+Bonus, id)
	return err
}

// AwardSmall is Award for a till that counts cents in an int32 and
// refunds as negative amounts: a refund's units are below zero and award
// nothing.
func AwardSmall(ctx context.Context, db *sql.DB, id int64, cents int32) error {
	units := int64(cents) / 100
	if units < 1 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, units*1000+Bonus, id)
	return err
}

// AwardRefund takes the points of a refund, given as a negative amount
// of cents, back from the welcome bonus it granted.
func AwardRefund(ctx context.Context, db *sql.DB, id, cents int64) error {
	units := cents / -100
	if units <= 0 || units > Bonus {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, Bonus-units, id)
	return err
}
