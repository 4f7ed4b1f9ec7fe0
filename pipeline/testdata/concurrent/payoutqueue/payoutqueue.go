// Package payoutqueue is a payout-queue worker: it reads a pending payout,
// marks it paid and debits the account — a table the constraint does not
// watch (payouts) read and written by the same request (adv15 concpanic:
// --concurrent crashed on it).
package payoutqueue

import (
	"context"
	"database/sql"
)

// Pay debits with the guard in the UPDATE: SAFE under concurrent requests.
func Pay(ctx context.Context, db *sql.DB) error {
	var id, acct, amount int64
	if err := db.QueryRowContext(ctx, `SELECT id, account_id, amount FROM payouts WHERE status = 'pending'`).Scan(&id, &acct, &amount); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `UPDATE payouts SET status = 'paid' WHERE id = $1`, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, amount, acct)
	return err
}
