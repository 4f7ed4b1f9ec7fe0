// Package pg_exists_keyed_unsafe redeems gift cards on PostgreSQL after an
// EXISTS or COUNT guard on the card's own row, found by its key.
package pg_exists_keyed_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var ErrNoFunds = errors.New("cards: not enough value")

// Cards is the gift card store.
type Cards struct{ DB *sql.DB }

// Redeem debits cents from card once EXISTS says the card has value left
// — not that it holds cents: a card worth less goes negative.
func (c *Cards) Redeem(ctx context.Context, card string, cents int64) error {
	if cents <= 0 {
		return errors.New("cards: cents must be positive")
	}
	var ok bool
	if err := c.DB.QueryRowContext(ctx,
		"SELECT EXISTS (SELECT 1 FROM cards WHERE code = $1 AND value_cents > 0)", card).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return ErrNoFunds
	}
	_, err := c.DB.ExecContext(ctx, "UPDATE cards SET value_cents = value_cents - $1 WHERE code = $2", cents, card)
	return err
}

// Drain takes everything above keep from card, once COUNT says the card
// holds more than keep.
func (c *Cards) Drain(ctx context.Context, card string, keep int64) error {
	if keep < 0 {
		return errors.New("cards: keep must not be negative")
	}
	var n int64
	if err := c.DB.QueryRowContext(ctx,
		"SELECT COUNT(*) FROM cards WHERE code = $1 AND value_cents > $2", card, keep).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	_, err := c.DB.ExecContext(ctx, "UPDATE cards SET value_cents = $1 WHERE code = $2", keep, card)
	return err
}
