// Package view_write_unsafe debits accounts through an updatable view of
// the open accounts (see schema.sql).
package view_write_unsafe

import (
	"context"
	"database/sql"
)

const debitOpen = "UPDATE open_accounts SET balance = balance - $1 WHERE id = $2"

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from open account id.
// BUG: nothing checks the balance.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	_, err := s.db.ExecContext(ctx, debitOpen, amt, id)
	return err
}
