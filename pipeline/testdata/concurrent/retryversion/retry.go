// Package retryversion debits with an optimistic version check and
// retries a lost race by re-reading only the version: the balance it
// checked is stale on the retry.
package retryversion

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

// Spend debits amt if the balance read covers it, retrying up to three
// times when the version moved.
func (a *Accounts) Spend(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	var balance, version int64
	if err := a.db.QueryRowContext(ctx, "SELECT balance, version FROM accounts WHERE id = $1", id).Scan(&balance, &version); err != nil {
		return err
	}
	if balance < amt {
		return errors.New("insufficient funds")
	}
	for attempt := 0; attempt < 3; attempt++ {
		res, err := a.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1, version = version + 1 WHERE id = $2 AND version = $3", amt, id, version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		if err := a.db.QueryRowContext(ctx, "SELECT version FROM accounts WHERE id = $1", id).Scan(&version); err != nil {
			return err
		}
	}
	return errors.New("too much contention")
}
