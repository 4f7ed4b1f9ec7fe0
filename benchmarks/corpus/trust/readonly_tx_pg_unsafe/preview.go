// Package readonly_tx_pg_unsafe previews a debit: it runs the UPDATE in a
// transaction to read the balance it would leave, but the options set
// the isolation level only, not ReadOnly: the transaction may write, and
// the preview commits the unguarded debit.
package readonly_tx_pg_unsafe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Store is the accounts repository.
type Store struct{ db *sql.DB }

// Preview returns the balance account id would have after paying amount.
func (s *Store) Preview(ctx context.Context, id, amount int64) (int64, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, id); err != nil {
		return 0, fmt.Errorf("preview debit: %w", err)
	}
	var balance int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&balance); err != nil {
		return 0, fmt.Errorf("read balance: %w", err)
	}
	return balance, tx.Commit()
}
