// Package sqlcsvc is the sqlc execTx service shape: a closure over the
// generated queries run in a transaction; its traces fold the steps of
// the generated code into the calls of the service.
package sqlcsvc

import (
	"context"
	"database/sql"

	"example.com/tracesteps/sqlcsvc/db"
)

// Store runs the queries in transactions.
type Store struct {
	db *sql.DB
	q  *db.Queries
}

func (s *Store) execTx(ctx context.Context, fn func(*db.Queries) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(s.q.WithTx(tx)); err != nil {
		return err
	}
	return tx.Commit()
}

// WithdrawWithFee debits amount plus a fee of 1 after checking only
// amount.
func (s *Store) WithdrawWithFee(ctx context.Context, walletID, amount int64) error {
	if amount <= 0 {
		return nil
	}
	return s.execTx(ctx, func(q *db.Queries) error {
		w, err := q.GetWalletForUpdate(ctx, walletID)
		if err != nil {
			return err
		}
		if w.Balance < amount {
			return nil
		}
		return q.AddWalletBalance(ctx, db.AddWalletBalanceParams{Amount: -(amount + 1), ID: walletID})
	})
}
