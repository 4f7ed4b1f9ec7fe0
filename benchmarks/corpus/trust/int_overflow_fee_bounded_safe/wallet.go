// Package int_overflow_fee_bounded_safe is int_overflow_fee_unsafe with the
// amount and the fee bounded first: their sum cannot wrap around, and the
// check against the balance holds.
package int_overflow_fee_bounded_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// Wallets is the wallet store.
type Wallets struct{ DB *sql.DB }

// Errors of Pay.
var (
	ErrBadAmount = errors.New("wallet: bad amount")
	ErrFunds     = errors.New("wallet: insufficient funds")
)

// maxAmount bounds a payment and a fee (a million units).
const maxAmount = 1_000_000

// Pay debits amount and then fee from wallet id.
func (w *Wallets) Pay(ctx context.Context, id, amount, fee int64) error {
	if amount <= 0 || fee < 0 || amount > maxAmount || fee > maxAmount {
		return ErrBadAmount
	}
	total := amount + fee
	var bal int64
	if err := w.DB.QueryRowContext(ctx, `SELECT balance FROM wallets WHERE id = $1`, id).Scan(&bal); err != nil {
		return err
	}
	if bal < total {
		return ErrFunds
	}
	tx, err := w.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amount, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, fee, id); err != nil {
		return err
	}
	return tx.Commit()
}
