// Package delete_safe closes and purges customer accounts.
package delete_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrNonZeroBalance = errors.New("accounts: balance must be zero to close the account")

const (
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	deleteAccount = "DELETE FROM accounts WHERE id = ?"
	purgeClosed   = "DELETE FROM accounts WHERE closed = 1 AND balance = 0"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Close deletes account id once its balance has been paid out.
func (s *Store) Close(ctx context.Context, id int64) error {
	var bal int64
	if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if bal != 0 {
		return ErrNonZeroBalance
	}
	_, err := s.db.ExecContext(ctx, deleteAccount, id)
	return err
}

// PurgeClosed removes every closed, empty account; it returns how many
// rows were removed.
func (s *Store) PurgeClosed(ctx context.Context) (int64, error) {
	res, err := s.db.ExecContext(ctx, purgeClosed)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
