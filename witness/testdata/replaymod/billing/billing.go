// Package billing charges accounts and records what they cannot pay as a
// debt.
package billing

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// Billing holds the database.
type Billing struct{ DB *sql.DB }

// Charge takes amt from the account when it covers it, otherwise records
// the shortfall as a debt; the comparison lets an exact balance through
// to the debt branch, which records a debt of 0.
func (b *Billing) Charge(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("billing: amount must be positive")
	}
	var bal int64
	if err := b.DB.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	if bal > amt {
		_, err := b.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id)
		return err
	}
	_, err := b.DB.ExecContext(ctx, `INSERT INTO debts (account_id, amount) VALUES (?, ?)`, id, amt-bal)
	return err
}
