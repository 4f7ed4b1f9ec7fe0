// Package pg_exists_redeem_rr_safe redeems gift cards on PostgreSQL at
// REPEATABLE READ: SELECT EXISTS checks the card's value, then an UPDATE
// debits it. Of two redemptions of one card, the second to update the
// row fails with 40001 (could not serialize access due to concurrent
// update) and rolls back.
package pg_exists_redeem_rr_safe

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
	tx, err := c.DB.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
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
