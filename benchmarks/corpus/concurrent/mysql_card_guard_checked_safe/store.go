// Package mysql_card_guard_checked_safe is the gift-card ledger of a shop on MySQL.
//
// The guarded debit with RowsAffected checked on MySQL: the racing second
// redemption returns ErrInsufficientBalance and rolls back.
package mysql_card_guard_checked_safe

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
	res, err := tx.ExecContext(ctx, "UPDATE gift_cards SET balance = balance - ? WHERE id = ? AND balance >= ?", amount, id, amount)
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("redeem: %w", err)
	} else if n != 1 {
		return ErrInsufficientBalance
	}
	if _, err := tx.ExecContext(ctx, "UPDATE gift_cards SET spent = spent + ? WHERE id = ?", amount, id); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	return tx.Commit()
}
