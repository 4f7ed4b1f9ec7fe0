// Package holds withdraws while keeping the account's hold available; the
// hold is a nullable column (NULL: no hold) whose CHECK the engine
// enforces, and the guard relies on it.
package holds

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Withdraw takes amount if what stays covers the hold (none when NULL).
func Withdraw(ctx context.Context, db *sql.DB, id, amount int64) error {
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance - ? >= COALESCE(hold, 0)`, amount, id, amount)
	return err
}
