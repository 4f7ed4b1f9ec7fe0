// Package pg_card_guard_unchecked_rc_unsafe is the gift-card ledger of a shop on PostgreSQL.
//
// Atomic guarded UPDATE without a RowsAffected check at READ COMMITTED:
// Redeem checks the balance in Go, debits with UPDATE ... WHERE balance >=
// $1, then records the spend. Alone the guard always passes; when two
// redemptions of 100 race, the second guard re-evaluates on the committed
// balance 0 and updates no row, but Redeem goes on and records the spend:
// balance 0 + spent 200 differs from the 100 loaded.
package pg_card_guard_unchecked_rc_unsafe

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
	// The WHERE clause guards the balance.
	if _, err := tx.ExecContext(ctx, "UPDATE gift_cards SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE gift_cards SET spent = spent + $1 WHERE id = $2", amount, id); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	return tx.Commit()
}
