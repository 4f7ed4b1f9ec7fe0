// Package pg_card_guard_unchecked_rr_safe is the gift-card ledger of a shop on PostgreSQL.
//
// The guarded debit without a RowsAffected check at REPEATABLE READ
// (sql.TxOptions): the racing second debit fails with 40001 instead of
// updating no row, so the spend is never recorded alone.
package pg_card_guard_unchecked_rr_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadAmount           = errors.New("giftcards: amount must be positive")
	ErrInsufficientBalance = errors.New("giftcards: insufficient balance")
)

// Cards redeems gift cards; each card keeps its balance and what was spent.
type Cards struct{ db *sql.DB }

func NewCards(db *sql.DB) *Cards { return &Cards{db: db} }

// Redeem pays amount with card id.
func (c *Cards) Redeem(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	tx, err := c.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM gift_cards WHERE id = $1", id).Scan(&balance); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if balance < amount {
		return ErrInsufficientBalance
	}
	// The WHERE clause guards the balance.
	if _, err := tx.ExecContext(ctx, "UPDATE gift_cards SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE gift_cards SET spent = spent + $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	return tx.Commit()
}
