// Package int_overflow_fee_unsafe charges a payment and its fee and checks
// the balance against their sum: amount + fee wraps around in int64, so a
// huge amount with a fee makes the sum negative and the check passes.
package int_overflow_fee_unsafe

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

// Pay debits amount and then fee from wallet id.
func (w *Wallets) Pay(ctx context.Context, id, amount, fee int64) error {
	if amount <= 0 || fee < 0 {
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
