// Package risk screens withdrawals with a risk engine that compares
// amounts as float32 (its scoring type) and debits int64 cents.
package risk

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Withdraw debits cents if the balance covers them, as the risk engine
// sees it: float32(16777217) == float32(16777216), so a balance of 2^24
// cents lets a debit of 2^24+1 through.
func Withdraw(ctx context.Context, db *sql.DB, id, cents int64) error {
	if cents <= 0 {
		return errors.New("risk: bad amount")
	}
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&bal); err != nil {
		return err
	}
	if float32(bal) < float32(cents) {
		return errors.New("risk: insufficient funds")
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, cents, id)
	return err
}

// WithdrawWide compares as float64: the same above 2^53 cents.
func WithdrawWide(ctx context.Context, db *sql.DB, id, cents int64) error {
	if cents <= 0 {
		return errors.New("risk: bad amount")
	}
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&bal); err != nil {
		return err
	}
	if float64(bal) < float64(cents) {
		return errors.New("risk: insufficient funds")
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, cents, id)
	return err
}
