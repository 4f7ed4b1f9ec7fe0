// Package mysql_payout_unsafe pays merchants their pending settlement
// balance (MySQL, go-sql-driver). Amounts are shopspring/decimal values,
// stored as DECIMAL(12,2).
package mysql_payout_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
	"github.com/shopspring/decimal"
)

var (
	ErrBelowMinimum      = errors.New("payout: amount below the minimum payout")
	ErrInsufficientFunds = errors.New("payout: pending balance too low or payouts disabled")
)

const (
	minPayout   = "10.00"
	feeRate     = "0.015" // 1.5% of the amount paid out
	minFeeCents = 50

	// The balance check is part of the UPDATE: no row changes when the
	// merchant cannot cover the payout and its fee.
	debitPending = "UPDATE merchants SET pending = pending - ? " +
		"WHERE id = ? AND payouts_enabled = 1 AND pending >= ?"
	insertPayout = "INSERT INTO payouts (merchant_id, amount, fee, status) VALUES (?, ?, ?, 'queued')"
)

// Payout is a queued transfer to a merchant's bank account.
type Payout struct {
	MerchantID int64
	Amount     decimal.Decimal
	Fee        decimal.Decimal
}

// Settlements manages merchant balances.
type Settlements struct {
	db *sql.DB
}

// NewSettlements returns a store over db.
func NewSettlements(db *sql.DB) *Settlements { return &Settlements{db: db} }

// fee is the payout fee: 1.5% of amount rounded to cents, at least 0.50.
func fee(amount decimal.Decimal) decimal.Decimal {
	f := amount.Mul(decimal.RequireFromString(feeRate)).Round(2)
	return decimal.Max(f, decimal.New(minFeeCents, -2))
}

// RequestPayout queues a payout of amount to merchantID; the fee is
// taken from the pending balance as well.
func (s *Settlements) RequestPayout(ctx context.Context, merchantID int64, amount decimal.Decimal) (Payout, error) {
	if amount.Cmp(decimal.RequireFromString(minPayout)) < 0 {
		return Payout{}, ErrBelowMinimum
	}
	p := Payout{MerchantID: merchantID, Amount: amount, Fee: fee(amount)}
	total := p.Amount.Add(p.Fee)

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Payout{}, fmt.Errorf("payout: begin: %w", err)
	}
	defer tx.Rollback()

	res, err := tx.ExecContext(ctx, debitPending, total, merchantID, p.Amount)
	if err != nil {
		return Payout{}, fmt.Errorf("payout: debit: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return Payout{}, fmt.Errorf("payout: debit: %w", err)
	}
	if n == 0 {
		return Payout{}, ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, insertPayout, merchantID, p.Amount, p.Fee); err != nil {
		return Payout{}, fmt.Errorf("payout: queue: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Payout{}, fmt.Errorf("payout: commit: %w", err)
	}
	return p, nil
}
