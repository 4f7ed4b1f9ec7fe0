// Package mysql_use_database_safe debits accounts of a database its
// schema file creates and selects (CREATE DATABASE, USE).
package mysql_use_database_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Debit takes amount from account id where the balance covers it.
func Debit(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?`, amount, id, amount)
	return err
}
