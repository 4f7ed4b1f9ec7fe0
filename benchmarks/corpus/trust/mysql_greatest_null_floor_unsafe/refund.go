// Package refund gives usage back, never below the plan's floor (MySQL).
package refund

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Refund lowers the usage by units, to the floor at least: a plan whose
// floor is negative takes the usage below zero.
func Refund(ctx context.Context, db *sql.DB, userID, units int64) error {
	if units <= 0 {
		return errors.New("bad units")
	}
	_, err := db.ExecContext(ctx, `UPDATE quotas SET used = GREATEST(used - ?, floor_units) WHERE user_id = ?`, units, userID)
	return err
}
