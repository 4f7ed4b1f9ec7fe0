// Package pg_withdraw_safe implements cash-out from a customer wallet
// (Postgres, lib/pq). Money is handled as shopspring/decimal values and
// stored in NUMERIC columns.
package pg_withdraw_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
	"github.com/shopspring/decimal"
)

var (
	ErrInvalidAmount     = errors.New("wallet: amount must be positive and at most the cash-out limit")
	ErrInsufficientFunds = errors.New("wallet: insufficient funds")
)

// cashOutLimit caps a single withdrawal.
var cashOutLimit = decimal.NewFromInt(5000)

const (
	// cashOutFee is charged on every withdrawal.
	cashOutFee = "0.25"

	lockWallet  = `SELECT balance FROM wallets WHERE id = $1 FOR UPDATE`
	debitWallet = `UPDATE wallets SET balance = balance - $1, updated_at = now() WHERE id = $2`
	insertEntry = `INSERT INTO wallet_entries (wallet_id, amount, kind) VALUES ($1, $2, 'cash_out')`
)

// Wallets is the wallet store.
type Wallets struct {
	db *sql.DB
}

// NewWallets returns a store over db.
func NewWallets(db *sql.DB) *Wallets { return &Wallets{db: db} }

// Withdraw pays amount out of walletID and charges the cash-out fee. It
// returns the new balance.
func (w *Wallets) Withdraw(ctx context.Context, walletID int64, amount decimal.Decimal) (decimal.Decimal, error) {
	if !amount.IsPositive() || amount.GreaterThan(cashOutLimit) {
		return decimal.Zero, ErrInvalidAmount
	}
	fee := decimal.RequireFromString(cashOutFee)
	total := amount.Add(fee)

	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return decimal.Zero, fmt.Errorf("withdraw: begin: %w", err)
	}
	defer tx.Rollback()

	var balance decimal.Decimal
	if err := tx.QueryRowContext(ctx, lockWallet, walletID).Scan(&balance); err != nil {
		return decimal.Zero, fmt.Errorf("withdraw: lock wallet %d: %w", walletID, err)
	}
	if balance.Sub(total).IsNegative() {
		return decimal.Zero, ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, debitWallet, total, walletID); err != nil {
		return decimal.Zero, fmt.Errorf("withdraw: debit: %w", err)
	}
	if _, err := tx.ExecContext(ctx, insertEntry, walletID, total.Neg()); err != nil {
		return decimal.Zero, fmt.Errorf("withdraw: ledger: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return decimal.Zero, fmt.Errorf("withdraw: commit: %w", err)
	}
	return balance.Sub(total), nil
}
