// Package mysql_use_database_unsafe debits accounts of a database its
// schema file creates and selects (CREATE DATABASE, USE).
package mysql_use_database_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Debit takes amount from account id. Bug: it asks for a positive amount
// but not for a balance that covers it.
func Debit(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}
