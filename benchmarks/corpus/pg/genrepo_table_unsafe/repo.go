// Package genrepo_table_unsafe: a generic balance repository whose table is
// an unexported field its constructors set to constants, formatted into
// the SQL text (adv19 probe/genrepo).
package genrepo_table_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

// Wallet and GiftCard are the entities with a balance.
type (
	Wallet   struct{}
	GiftCard struct{}
)

// BalanceRepo debits balances of one table.
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
	return &BalanceRepo[GiftCard]{db: db, table: "gift_cards"}
}

// Debit takes amount; the guard was forgotten.
func (r *BalanceRepo[T]) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	q := fmt.Sprintf(`UPDATE %s SET balance = balance - $1 WHERE id = $2`, r.table)
	_, err := r.db.ExecContext(ctx, q, amount, id)
	return err
}
