// Package mysql_update_order_limit_safe picks stock from the fullest bin of a SKU (MySQL UPDATE … ORDER BY … LIMIT 1).
package mysql_update_order_limit_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

var ErrShort = errors.New("no bin holds that many")

func Pick(ctx context.Context, db *sql.DB, sku string, qty int64) error {
	if qty <= 0 {
		return errors.New("bad qty")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var most int64
	if err := tx.QueryRowContext(ctx, `SELECT qty FROM bins WHERE sku = ? ORDER BY qty DESC LIMIT 1 FOR UPDATE`, sku).Scan(&most); err != nil {
		return err
	}
	if most < qty {
		return ErrShort
	}
	if _, err := tx.ExecContext(ctx, `UPDATE bins SET qty = qty - ? WHERE sku = ? ORDER BY qty DESC LIMIT 1`, qty, sku); err != nil {
		return err
	}
	return tx.Commit()
}
