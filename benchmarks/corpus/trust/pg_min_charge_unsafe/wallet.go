// Package wallet keeps prepaid wallets (in euros, as floats) on
// PostgreSQL; every charge costs at least the operator's minimum.
package wallet

import (
	"context"
	"database/sql"
	"errors"
	"math"

	_ "github.com/lib/pq"
)

var (
	ErrBadAmount = errors.New("wallet: bad amount")
	ErrNoFunds   = errors.New("wallet: balance too low")
)

// Wallets is the wallet store.
type Wallets struct {
	db        *sql.DB
	minCharge float64
}

// Open connects to dsn; minCharge is the smallest amount a charge costs.
func Open(dsn string, minCharge float64) (*Wallets, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	return &Wallets{db: db, minCharge: math.Abs(minCharge)}, nil
}

// Charge debits amount, or the minimum charge when amount is below it.
func (w *Wallets) Charge(ctx context.Context, id int64, amount float64) error {
	if math.IsNaN(amount) || math.IsInf(amount, 0) || amount <= 0 {
		return ErrBadAmount
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal float64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM wallets WHERE id = $1 FOR UPDATE`, id).Scan(&bal); err != nil {
		return err
	}
	charge := math.Max(amount, w.minCharge)
	if amount > bal {
		return ErrNoFunds
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, charge, id); err != nil {
		return err
	}
	return tx.Commit()
}

// Refund credits the size of a disputed amount, whatever its sign in the
// dispute record.
func (w *Wallets) Refund(ctx context.Context, id int64, disputed float64) error {
	if math.IsNaN(disputed) || math.IsInf(disputed, 0) {
		return ErrBadAmount
	}
	_, err := w.db.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, math.Abs(disputed), id)
	return err
}
