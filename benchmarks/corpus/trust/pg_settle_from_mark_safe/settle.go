// Package pg_settle_from_mark_safe settles a charge with one UPDATE …
// FROM that joins the charge row, then marks the charge settled.
package pg_settle_from_mark_safe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Settle debits charge chargeID from its account, where the balance
// covers the amount, and marks it settled.
func Settle(ctx context.Context, db *sql.DB, chargeID int64) error {
	if _, err := db.ExecContext(ctx, `UPDATE accounts AS a SET balance = a.balance - c.amount
		FROM charges AS c WHERE c.account_id = a.id AND c.id = $1 AND NOT c.settled AND a.balance >= c.amount`, chargeID); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE charges SET settled = true WHERE id = $1`, chargeID)
	return err
}
