// Package risk screens withdrawals with a risk engine that compares
// amounts as float64, with the amount capped far below 2^53 cents.
package risk

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// maxCents caps one withdrawal: 2^40 cents, exact as a float64.
const maxCents = 1 << 40

// Withdraw debits cents if the balance covers them: below 2^53 both
// conversions are exact, and a balance above the cap covers any amount.
func Withdraw(ctx context.Context, db *sql.DB, id, cents int64) error {
	if cents <= 0 || cents > maxCents {
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

// WithdrawSmall compares as float32 with amounts of at most 2^20 cents
// (exact as float32); a balance past 2^24 rounds, but then it exceeds
// every allowed amount by far more than its rounding.
func WithdrawSmall(ctx context.Context, db *sql.DB, id int64, cents int32) error {
	if cents <= 0 || cents > 1<<20 {
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
