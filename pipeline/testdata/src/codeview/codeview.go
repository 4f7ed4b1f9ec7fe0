// Package codeview charges fees through an updatable view that its
// start-up migration creates, or that --schema does not declare.
package codeview

import (
	"context"
	"database/sql"
	"errors"
)

// Migrate creates the live_accounts view at start-up.
func Migrate(db *sql.DB) error {
	_, err := db.Exec(`CREATE OR REPLACE VIEW live_accounts AS SELECT id, balance FROM accounts WHERE deleted_at IS NULL`)
	return err
}

// Deposit writes the table directly.
func Deposit(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return errors.New("bad amount")
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance + $1 WHERE id = $2`, amt, id)
	return err
}

// Fee charges a live account through the view, unchecked.
func Fee(ctx context.Context, db *sql.DB, id, fee int64) error {
	if fee <= 0 {
		return errors.New("bad fee")
	}
	_, err := db.ExecContext(ctx, `UPDATE live_accounts SET balance = balance - $1 WHERE id = $2`, fee, id)
	return err
}

// Audit writes a table --schema does not declare.
func Audit(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, `INSERT INTO audit_log (account_id) VALUES ($1)`, id)
	return err
}
