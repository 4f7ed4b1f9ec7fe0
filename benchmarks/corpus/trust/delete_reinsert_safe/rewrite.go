// Package delete_reinsert_safe rewrites an account row (delete and
// insert, as an ORM "replace" does) to apply a fee, inside a transaction.
package delete_reinsert_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrOverdrawn = errors.New("accounts: overdrawn")

const (
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	deleteAccount = "DELETE FROM accounts WHERE id = ?"
	insertAccount = "INSERT INTO accounts (id, balance) VALUES (?, ?)"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// ApplyFee replaces account id by a copy charged fee and returns the new
// balance as stored.
func (s *Store) ApplyFee(ctx context.Context, id, fee int64) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, deleteAccount, id); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, insertAccount, id, bal-fee); err != nil {
		return 0, err
	}
	var stored int64
	if err := tx.QueryRowContext(ctx, selectBalance, id).Scan(&stored); err != nil {
		return 0, err
	}
	if stored < 0 {
		return 0, ErrOverdrawn // the deferred Rollback restores the old row
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return stored, nil
}
