// Package pg_schema_qualified_unsafe debits accounts of a PostgreSQL
// schema of its own (bank.accounts).
package pg_schema_qualified_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// Debit takes amount from account id. Bug: it asks for a positive amount
// but not for a balance that covers it.
func Debit(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := db.ExecContext(ctx, `UPDATE bank.accounts SET balance = balance - $1 WHERE id = $2`, amount, id)
	return err
}
