// Package handles runs statements on the pool, on a connection (with its
// transaction sent as SQL text) and on a transaction object.
package handles

import (
	"context"
	"database/sql"
)

// OnConn debits inside BEGIN … COMMIT sent on one connection.
func OnConn(ctx context.Context, db *sql.DB, id, amt int64) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return err
	}
	_, err = conn.ExecContext(ctx, "COMMIT")
	return err
}

// OnPool sends BEGIN to the pool: the next statement may run on another
// connection.
func OnPool(ctx context.Context, db *sql.DB, id, amt int64) error {
	if _, err := db.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}

// Mixed debits in a transaction and reads through the pool.
func Mixed(ctx context.Context, db *sql.DB, id, amt int64) (int64, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id); err != nil {
		return 0, err
	}
	var bal int64
	if err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal); err != nil {
		return 0, err
	}
	return bal, tx.Commit()
}
