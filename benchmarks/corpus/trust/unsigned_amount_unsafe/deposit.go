// Package unsigned_amount_unsafe applies a signed adjustment computed from
// an unsigned deposit and a fee.
package unsigned_amount_unsafe

import (
	"context"
	"database/sql"
)

const adjustAccount = "UPDATE accounts SET balance = balance + ? WHERE id = ?"

// Store is the account repository.
type Store struct{ db *sql.DB }

// Deposit adds cents minus the fee to account id. Bug: a deposit smaller
// than the fee makes the adjustment negative and may overdraw the account.
func (s *Store) Deposit(ctx context.Context, id int64, cents uint64, fee uint32) error {
	adj := int64(cents) - int64(fee)
	_, err := s.db.ExecContext(ctx, adjustAccount, adj, id)
	return err
}
