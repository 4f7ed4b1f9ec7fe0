// Package readonly_tx_pgx_safe previews a debit with pgx v5: the UPDATE
// runs in a transaction begun with AccessMode pgx.ReadOnly, which
// PostgreSQL refuses to write in (SQLSTATE 25006): the unguarded debit
// never reaches the table.
package readonly_tx_pgx_safe

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is the accounts repository.
type Store struct{ pool *pgxpool.Pool }

// Preview returns the balance account id would have after paying amount.
func (s *Store) Preview(ctx context.Context, id, amount int64) (int64, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(ctx)
	var balance int64
	err = tx.QueryRow(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2 RETURNING balance`, amount, id).Scan(&balance)
	if err != nil {
		return 0, fmt.Errorf("preview debit: %w", err)
	}
	return balance, tx.Commit(ctx)
}
