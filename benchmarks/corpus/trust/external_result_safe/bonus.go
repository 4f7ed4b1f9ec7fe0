// Package loyalty pays random loyalty bonuses (MySQL).
package loyalty

import (
	"context"
	"database/sql"
	"math/rand"

	_ "github.com/go-sql-driver/mysql"
)

// threshold is the lowest draw that wins; the bonus is what exceeds it.
const threshold = 20

// eligible reports whether a draw wins a bonus.
func eligible(draw int64) bool {
	return draw >= threshold
}

// Draw credits a random loyalty bonus to an account.
func Draw(ctx context.Context, db *sql.DB, id int64) error {
	draw := rand.Int63n(100)
	if !eligible(draw) {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET points = points + ? WHERE id = ?", draw-threshold, id)
	return err
}
