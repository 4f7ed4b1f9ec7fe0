// Package fees charges monthly fees to a batch of accounts (MySQL, sqlx).
// The batch is expanded into the statement's IN list by sqlx.In.
package fees

import (
	"context"
	"errors"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
)

// Store charges fees.
type Store struct{ db *sqlx.DB }

// ChargeFee takes fee from each account in ids whose balance covers it.
func (s *Store) ChargeFee(ctx context.Context, ids []int64, fee int64) error {
	if fee <= 0 {
		return errors.New("fee must be positive")
	}
	if len(ids) == 0 {
		return nil
	}
	query, args, err := sqlx.In(
		"UPDATE accounts SET balance = balance - ? WHERE id IN (?) AND balance >= ?", fee, ids, fee)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(query), args...)
	return err
}
