// Package mysql_settle_join_mark_safe settles a charge with one
// multi-table UPDATE that joins the charge row, then marks the charge
// settled.
package mysql_settle_join_mark_safe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Settle debits charge chargeID from its account, where the balance
// covers the amount, and marks it settled.
func Settle(ctx context.Context, db *sql.DB, chargeID int64) error {
	if _, err := db.ExecContext(ctx, `UPDATE accounts a JOIN charges c ON c.account_id = a.id SET a.balance = a.balance - c.amount
		WHERE c.id = ? AND NOT c.settled AND a.balance >= c.amount`, chargeID); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE charges SET settled = true WHERE id = ?`, chargeID)
	return err
}
