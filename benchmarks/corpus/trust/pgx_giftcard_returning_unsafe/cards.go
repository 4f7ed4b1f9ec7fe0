// Package pgx_giftcard_returning_unsafe redeems gift cards with pgx: the
// redemption reports the remaining balance through RETURNING.
package pgx_giftcard_returning_unsafe

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var ErrInsufficient = errors.New("gift card balance too low")

type Cards struct {
	pool *pgxpool.Pool
	fee  int64
}

func NewCards(pool *pgxpool.Pool) *Cards { return &Cards{pool: pool, fee: 2} }

// Redeem takes amount from the card, then a handling fee.
func (c *Cards) Redeem(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	var remaining int64
	err := c.pool.QueryRow(ctx,
		`UPDATE gift_cards SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING balance`,
		amount, id).Scan(&remaining)
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrInsufficient
	}
	if err != nil {
		return err
	}
	fee := c.fee
	// Bug: the fee check looks at the balance before the redemption.
	if remaining+amount >= fee {
		_, err = c.pool.Exec(ctx, `UPDATE gift_cards SET balance = balance - $1 WHERE id = $2`, fee, id)
	}
	return err
}
