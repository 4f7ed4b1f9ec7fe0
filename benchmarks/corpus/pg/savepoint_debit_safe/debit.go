// Package savepoint_debit_safe debits an account inside a transaction under a
// savepoint, reads the balance back and, where the debit overdraws the
// account, undoes it with ROLLBACK TO SAVEPOINT, then
// counts the declined debit and commits.
package savepoint_debit_safe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Debit takes amount from account id; an overdrawing debit is declined
// (counted in declined) and the transaction still commits.
func (s *Store) Debit(ctx context.Context, id, amount int64) (declined bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SAVEPOINT debit"); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return false, err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return false, err
	}
	if bal < 0 {
		if _, err := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT debit"); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE accounts SET declined = declined + 1 WHERE id = $1", id); err != nil {
			return false, err
		}
		declined = true
	}
	return declined, tx.Commit()
}
