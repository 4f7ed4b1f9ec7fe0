// Package mysql_page_offset_unsafe charges a fee to one page of the accounts
// with a positive balance, walked with LIMIT and OFFSET; the fee is not compared
// with the balance.
package mysql_page_offset_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// ChargePage charges fee to the accounts of one page.
func ChargePage(ctx context.Context, db *sql.DB, fee, limit, offset int64) error {
	if fee <= 0 {
		return nil
	}
	rows, err := db.QueryContext(ctx, `SELECT id FROM accounts WHERE balance > 0 ORDER BY id LIMIT ? OFFSET ?`, limit, offset)
	if err != nil {
		return err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, fee, id); err != nil {
			return err
		}
	}
	return nil
}
