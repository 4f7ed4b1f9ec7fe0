// Package goose_checks_safe is the data layer of a coffee roastery's web
// shop (MySQL, schema managed with goose in db/migrations). The invariants
// are the CHECK constraints of the migrations.
package goose_checks_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrInvalidAmount     = errors.New("shop: amount must be positive")
	ErrInsufficientFunds = errors.New("shop: insufficient wallet balance")
	ErrUnavailable       = errors.New("shop: not enough unreserved stock")
	ErrNotFound          = errors.New("shop: not found")
)

// Wallets is the prepaid-wallet repository.
type Wallets struct {
	db *sql.DB
}

func NewWallets(db *sql.DB) *Wallets { return &Wallets{db: db} }

// Pay takes amount from the wallet of userID, if it holds enough.
func (w *Wallets) Pay(ctx context.Context, userID, amount int64) error {
	if amount <= 0 {
		return ErrInvalidAmount
	}
	res, err := w.db.ExecContext(ctx,
		"UPDATE `wallets` SET `balance` = `balance` - ? WHERE `user_id` = ? AND `balance` >= ?",
		amount, userID, amount)
	if err != nil {
		return fmt.Errorf("pay: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("pay: %w", err)
	}
	if n == 0 {
		return ErrInsufficientFunds
	}
	return nil
}
