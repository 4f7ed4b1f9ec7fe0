// Package pgx_collect_safe reads the balance with pgx.CollectOneRow and
// debits when it covers the amount.
package pgx_collect_safe

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var ErrInsufficientFunds = errors.New("accounts: insufficient funds")

// Store is the account repository.
type Store struct{ pool *pgxpool.Pool }

// Withdraw takes amt from account id.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", id)
	if err != nil {
		return err
	}
	bal, err := pgx.CollectOneRow(rows, pgx.RowTo[int64])
	if err != nil {
		return err
	}
	if bal < amt {
		return ErrInsufficientFunds
	}
	if _, err := tx.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amt, id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
