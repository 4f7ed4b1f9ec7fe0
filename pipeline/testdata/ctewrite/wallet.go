// Package ctewrite debits through a data-modifying WITH whose SELECT
// reads back its RETURNING (pipeline's TestReturningCTE; adv16
// ledgercte).
package ctewrite

import (
	"context"
	"database/sql"
	"errors"
)

var ErrFunds = errors.New("insufficient funds")

const debit = `WITH d AS (
	UPDATE wallets SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING balance
) SELECT balance FROM d`

// Debit takes amt where the balance covers it and returns what is left:
// SAFE.
func Debit(ctx context.Context, db *sql.DB, id, amt int64) (int64, error) {
	if amt <= 0 {
		return 0, errors.New("amount must be positive")
	}
	var left int64
	err := db.QueryRowContext(ctx, debit, amt, id).Scan(&left)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrFunds
	}
	return left, err
}

// DebitWithFee then takes a fee from what is left, unchecked, when
// anything is: UNSAFE (1 left, fee 2).
func DebitWithFee(ctx context.Context, db *sql.DB, id, amt, fee int64) error {
	left, err := Debit(ctx, db, id, amt)
	if err != nil {
		return err
	}
	if left > 0 {
		_, err = db.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, fee, id)
	}
	return err
}
