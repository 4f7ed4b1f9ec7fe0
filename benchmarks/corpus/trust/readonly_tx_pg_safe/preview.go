// Package readonly_tx_pg_safe previews a debit: it runs the UPDATE in a
// READ ONLY transaction to read the balance it would leave. PostgreSQL
// refuses every write in a read-only transaction (SQLSTATE 25006), so
// the preview fails and the unguarded debit never reaches the table.
package readonly_tx_pg_safe

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
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
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
