// Package readonly_tx_mysql_safe charges a monthly fee from a reporting
// job that runs in a READ ONLY transaction. MariaDB refuses every write
// in it (error 1792, "Cannot execute statement in a READ ONLY
// transaction"), so the unguarded fee is never taken.
package readonly_tx_mysql_safe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

// Reports reads account figures.
type Reports struct{ db *sql.DB }

// MonthEnd reads the balance of account id and charges fee.
func (r *Reports) MonthEnd(ctx context.Context, id, fee int64) (int64, error) {
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&balance); err != nil {
		return 0, fmt.Errorf("read balance: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, fee, id); err != nil {
		return 0, fmt.Errorf("charge fee: %w", err)
	}
	return balance - fee, tx.Commit()
}
