// Package bounded3 takes a fixed fee of 50 when a plain read saw at least
// 150: three concurrent requests cannot overdraw (150 - 3 × 50 = 0), four
// can. The stability check fails; the 3-request search finds nothing.
package bounded3

import (
	"context"
	"database/sql"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Fee takes the monthly fee of a rich account.
func (a *Accounts) Fee(ctx context.Context, id int64) error {
	var bal int64
	if err := a.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal < 150 {
		return nil
	}
	_, err := a.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 50 WHERE id = $1", id)
	return err
}
