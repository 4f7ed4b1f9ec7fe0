// Package mysql_exists_redeem_rr_unsafe redeems gift cards on MySQL at
// REPEATABLE READ (InnoDB's default): SELECT EXISTS checks the card's
// value in the transaction's snapshot, then an UPDATE debits the latest
// committed row. Two redemptions of one card both see the value and both
// debit: InnoDB's UPDATE does not fail on a concurrent update.
package mysql_exists_redeem_rr_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
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
		"SELECT EXISTS (SELECT 1 FROM cards WHERE code = ? AND value_cents >= ?)", card, cents).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return ErrNoFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE cards SET value_cents = value_cents - ? WHERE code = ?", cents, card); err != nil {
		return err
	}
	return tx.Commit()
}
