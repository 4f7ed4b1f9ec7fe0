// Package wallet sets floors on SQLite balances. SQLite's scalar max and
// min compare their arguments as stored, without the affinity a
// comparison with a column gives: max(0, '-5') is the TEXT '-5' (TEXT
// sorts above every number), stored through the INTEGER column's
// affinity as -5.
package wallet

import (
	"context"
	"database/sql"
)

// ClampText raises the balance to a floor that arrives as text: the text
// "-5" takes balance 0 to -5.
func ClampText(ctx context.Context, db *sql.DB, id int64, floor string) error {
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = max(balance, ?) WHERE id = ?`, floor, id)
	return err
}

// ClampInt raises the balance to a floor given as an integer: max compares
// the numbers, and a negative floor leaves a non-negative balance alone.
func ClampInt(ctx context.Context, db *sql.DB, id, floor int64) error {
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = max(balance, ?) WHERE id = ?`, floor, id)
	return err
}
