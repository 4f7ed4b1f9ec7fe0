// Package mysql_card_guard_unchecked_unsafe is the gift-card ledger of a shop on MySQL.
//
// Atomic guarded UPDATE without a RowsAffected check on MySQL (REPEATABLE
// READ): the second racing debit is a current read of the committed balance
// 0, matches no row, and the spend is recorded anyway.
package mysql_card_guard_unchecked_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
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
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM gift_cards WHERE id = ?", id).Scan(&balance); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if balance < amount {
		return ErrInsufficientBalance
	}
	// The WHERE clause guards the balance.
	if _, err := tx.ExecContext(ctx, "UPDATE gift_cards SET balance = balance - ? WHERE id = ? AND balance >= ?", amount, id, amount); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE gift_cards SET spent = spent + ? WHERE id = ?", amount, id); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	return tx.Commit()
}
