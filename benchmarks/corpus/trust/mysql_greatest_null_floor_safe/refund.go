// Package refund gives usage back, never below the plan's floor (MySQL).
package refund

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Refund lowers the usage by units, to the floor at least. A plan with
// no floor (NULL) makes GREATEST NULL on MySQL, and the NOT NULL column
// refuses it (error 1048): the row is left alone; a negative floor is
// not refunded against.
func Refund(ctx context.Context, db *sql.DB, userID, units int64) error {
	if units <= 0 {
		return errors.New("bad units")
	}
	_, err := db.ExecContext(ctx, `UPDATE quotas SET used = GREATEST(used - ?, floor_units) WHERE user_id = ? AND (floor_units IS NULL OR floor_units >= 0)`, units, userID)
	return err
}
