// Package giftcard_unique_safe redeems gift cards at checkout (PostgreSQL,
// schema in ./migrations, golang-migrate layout). Cards are identified by
// their printed code.
package giftcard_unique_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

var (
	ErrInvalidAmount = errors.New("giftcard: amount must be positive")
	ErrUnknownCard   = errors.New("giftcard: unknown card")
	ErrInsufficient  = errors.New("giftcard: balance too low")
)

// GiftCards is the gift-card repository.
type GiftCards struct {
	db *sql.DB
}

func NewGiftCards(db *sql.DB) *GiftCards { return &GiftCards{db: db} }

// Redeem pays amount of orderID with the card code and returns the balance
// left on the card.
func (g *GiftCards) Redeem(ctx context.Context, code string, orderID, amount int64) (int64, error) {
	if amount <= 0 {
		return 0, ErrInvalidAmount
	}
	tx, err := g.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var balance int64
	err = tx.QueryRowContext(ctx, `SELECT balance FROM gift_cards WHERE code = $1 FOR UPDATE`, code).Scan(&balance)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrUnknownCard
	}
	if err != nil {
		return 0, fmt.Errorf("giftcard: %w", err)
	}
	if balance < amount {
		return 0, ErrInsufficient
	}
	if _, err := tx.ExecContext(ctx, `UPDATE gift_cards SET balance = balance - $1 WHERE code = $2`, amount, code); err != nil {
		return 0, fmt.Errorf("giftcard: debit: %w", err)
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO gift_card_redemptions (code, amount, order_id) VALUES ($1, $2, $3)`,
		code, amount, orderID); err != nil {
		return 0, fmt.Errorf("giftcard: record redemption: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return balance - amount, nil
}
