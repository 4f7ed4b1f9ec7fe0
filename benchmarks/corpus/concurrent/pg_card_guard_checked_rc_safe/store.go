// Package pg_card_guard_checked_rc_safe is the gift-card ledger of a shop on PostgreSQL.
//
// The guarded debit (UPDATE ... WHERE balance >= $1) with its RowsAffected
// checked before the spend is recorded, at READ COMMITTED: a redemption that
// loses the race returns ErrInsufficientBalance and rolls back.
package pg_card_guard_checked_rc_safe

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
	tx, err := c.db.BeginTx(ctx, nil)
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
	res, err := tx.ExecContext(ctx, "UPDATE gift_cards SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id)
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("redeem: %w", err)
	} else if n != 1 {
		return ErrInsufficientBalance
	}
	if _, err := tx.ExecContext(ctx, "UPDATE gift_cards SET spent = spent + $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	return tx.Commit()
}
