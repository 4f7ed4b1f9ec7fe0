// Package repo is a generic balance repository whose table is an
// unexported field its constructors set to constants.
package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Wallet and GiftCard are the entities with a balance.
type (
	Wallet   struct{}
	GiftCard struct{}
)

// BalanceRepo changes balances of one table.
type BalanceRepo[T any] struct {
	db    *sql.DB
	table string
}

// NewWallets is the wallets repository.
func NewWallets(db *sql.DB) *BalanceRepo[Wallet] {
	return &BalanceRepo[Wallet]{db: db, table: "wallets"}
}

// NewGiftCards is the gift cards repository.
func NewGiftCards(db *sql.DB) *BalanceRepo[GiftCard] {
	r := &BalanceRepo[GiftCard]{db: db}
	r.table = "gift_cards"
	return r
}

// Debit takes amount if the balance covers it.
func (r *BalanceRepo[T]) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	q := fmt.Sprintf(`UPDATE %s SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, r.table)
	_, err := r.db.ExecContext(ctx, q, amount, id)
	return err
}

// Credit adds amount, of any sign.
func (r *BalanceRepo[T]) Credit(ctx context.Context, id, amount int64) error {
	q := fmt.Sprintf(`UPDATE %s SET balance = balance + $1 WHERE id = $2`, r.table)
	_, err := r.db.ExecContext(ctx, q, amount, id)
	return err
}
