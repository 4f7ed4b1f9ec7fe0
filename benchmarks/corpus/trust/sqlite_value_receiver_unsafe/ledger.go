// Package sqlite_value_receiver_unsafe debits through a method with a
// value receiver.
package sqlite_value_receiver_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// Ledger is passed by value: its methods have value receivers.
type Ledger struct{ DB *sql.DB }

// Debit takes amount from account id. Bug: it asks for a positive amount
// but not for a balance that covers it.
func (l Ledger) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := l.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}
