// Package wallet settles a wallet's pending top-up into its credit
// (PostgreSQL, pgx v5). The row is collected into a struct with
// pgx.CollectOneRow and pgx.RowToStructByName.
package wallet

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// balance is a wallet row as pgx collects it: credit by its tag, pending
// by the field's name.
type balance struct {
	Credit  int64 `db:"credit"`
	Pending uint32
}

// Store holds the wallets.
type Store struct{ pool *pgxpool.Pool }

// Settle moves wallet id's pending amount into its credit.
func (s *Store) Settle(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx, "SELECT credit, pending FROM wallets WHERE id = $1 FOR UPDATE", id)
	if err != nil {
		return err
	}
	w, err := pgx.CollectOneRow(rows, pgx.RowToStructByName[balance])
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE wallets SET credit = credit + $1, pending = 0 WHERE id = $2", int64(w.Pending), id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
