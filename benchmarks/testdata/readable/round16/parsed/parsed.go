// Package parsed takes stock for a quantity that arrives as text and
// trusts strconv.ParseInt to return 0 when it fails (it returns
// math.MaxInt64 for a number out of range).
package parsed

import (
	"context"
	"database/sql"
	"log"
	"strconv"

	_ "github.com/lib/pq"
)

// Take removes qtyText items of item id from stock.
func Take(ctx context.Context, db *sql.DB, id int64, qtyText string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM items WHERE id = $1 FOR UPDATE", id).Scan(&stock); err != nil {
		return err
	}
	qty, err := strconv.ParseInt(qtyText, 10, 64)
	if err != nil {
		log.Printf("take %d: bad quantity %q: %v", id, qtyText, err)
	} else if qty <= 0 || qty > stock {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE items SET stock = stock - $1 WHERE id = $2", qty, id); err != nil {
		return err
	}
	return tx.Commit()
}
