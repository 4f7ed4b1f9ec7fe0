// Package loyalty pays random loyalty bonuses (MySQL).
package loyalty

import (
	"context"
	"database/sql"
	"math/rand"

	_ "github.com/go-sql-driver/mysql"
)

// Draw credits a random bonus (or a random adjustment) to an account.
func Draw(ctx context.Context, db *sql.DB, id int64) error {
	// A draw between -20 and 79; a negative draw means "no bonus".
	n := rand.Int63n(100) - 20
	// BUG: the check tests the raw draw, not the adjusted one.
	if rand.Int63n(100) < 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET points = points + ? WHERE id = ?", n, id)
	return err
}
