// Package prepstmt runs statements it prepares in the function that runs
// them: the coverage names the tables they write (before, "?").
package prepstmt

import (
	"context"
	"database/sql"
	"errors"
)

// Move transfers qty from one sku to another with a statement prepared
// in the transaction, checking the source's stock first.
func Move(ctx context.Context, db *sql.DB, from, to string, qty int64) error {
	if qty <= 0 {
		return errors.New("quantity must be positive")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, `SELECT stock FROM inventory WHERE sku = ?`, from).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errors.New("out of stock")
	}
	upd, err := tx.PrepareContext(ctx, `UPDATE inventory SET stock = stock + ? WHERE sku = ?`)
	if err != nil {
		return err
	}
	defer upd.Close()
	if _, err := upd.ExecContext(ctx, -qty, from); err != nil {
		return err
	}
	if _, err := upd.ExecContext(ctx, qty, to); err != nil {
		return err
	}
	return tx.Commit()
}

// Take removes qty with a statement prepared on the pool and bound to
// the transaction (bug: no stock check).
func Take(ctx context.Context, db *sql.DB, sku string, qty int64) error {
	stmt, err := db.PrepareContext(ctx, `UPDATE inventory SET stock = stock - ? WHERE sku = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, qty, sku); err != nil {
		return err
	}
	return tx.Commit()
}

// Log records a movement with a prepared statement: it writes no
// inventory row.
func Log(db *sql.DB, sku string, qty int64) error {
	stmt, err := db.Prepare(`INSERT INTO movements (sku, qty) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	_, err = stmt.Exec(sku, qty)
	return err
}
