// Package loyalty awards points for purchases: one point per whole
// currency unit spent, added to the member's points in Go.
package loyalty

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Award adds the purchase's units to the points read from the row: the
// sum wraps around for a member whose points are near MaxInt64 (a
// points column an earlier bug or an admin import filled), and the
// negative sum is written.
func Award(ctx context.Context, db *sql.DB, id, cents int64) error {
	units := cents / 100
	if units <= 0 {
		return nil
	}
	var pts int64
	if err := db.QueryRowContext(ctx, `SELECT points FROM members WHERE id = $1`, id).Scan(&pts); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET points = $1 WHERE id = $2`, pts+units, id)
	return err
}
