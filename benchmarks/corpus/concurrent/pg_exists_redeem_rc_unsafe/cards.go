// Package pg_exists_redeem_rc_unsafe redeems gift cards on PostgreSQL at
// READ COMMITTED: SELECT EXISTS checks the card's value, then an UPDATE
// debits it. Two redemptions of one card both see the value before
// either debits it, and both debit.
package pg_exists_redeem_rc_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var ErrNoFunds = errors.New("cards: not enough value")

type Cards struct{ DB *sql.DB }

// Redeem debits cents from card once EXISTS says the card holds them.
func (c *Cards) Redeem(ctx context.Context, card string, cents int64) error {
	if cents <= 0 {
		return errors.New("cards: cents must be positive")
	}
	tx, err := c.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var ok bool
	if err := tx.QueryRowContext(ctx,
		"SELECT EXISTS (SELECT 1 FROM cards WHERE code = $1 AND value_cents >= $2)", card, cents).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return ErrNoFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE cards SET value_cents = value_cents - $1 WHERE code = $2", cents, card); err != nil {
		return err
	}
	return tx.Commit()
}
