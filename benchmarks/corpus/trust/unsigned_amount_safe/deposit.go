// Package unsigned_amount_safe credits deposits given as unsigned amounts.
package unsigned_amount_safe

import (
	"context"
	"database/sql"
)

const creditAccount = "UPDATE accounts SET balance = balance + ? WHERE id = ?"

// Store is the account repository.
type Store struct{ db *sql.DB }

// Deposit adds cents to account id; an unsigned amount is never negative.
func (s *Store) Deposit(ctx context.Context, id int64, cents uint64) error {
	_, err := s.db.ExecContext(ctx, creditAccount, cents, id)
	return err
}
