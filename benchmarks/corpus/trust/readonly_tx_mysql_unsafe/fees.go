// Package readonly_tx_mysql_unsafe charges a monthly fee after a
// reporting read in a READ ONLY transaction: the fee is taken on the
// pool, outside that transaction, where MariaDB lets the unguarded
// UPDATE through.
package readonly_tx_mysql_unsafe

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
	var balance int64
	err = tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&balance)
	tx.Rollback()
	if err != nil {
		return 0, fmt.Errorf("read balance: %w", err)
	}
	if _, err := r.db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, fee, id); err != nil {
		return 0, fmt.Errorf("charge fee: %w", err)
	}
	return balance - fee, nil
}
