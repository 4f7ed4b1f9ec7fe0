// Package const_flag_branch_pg_unsafe spends a gift card through a helper
// shared with a legacy path: the legacy branch sends ROLLBACK TO on the
// pool (not modelled: UNKNOWN where it may run). Pay passes the constant
// false, but the current branch only undoes an overdraft of more than
// 100: a smaller one is committed.
package const_flag_branch_pg_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Cards is the gift card repository.
type Cards struct{ db *sql.DB }

func (c *Cards) spend(ctx context.Context, card, amount int64, legacy bool) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SAVEPOINT spend`); err != nil {
		return err
	}
	var gift int64
	if err := tx.QueryRowContext(ctx, `UPDATE cards SET gift = gift - $1 WHERE id = $2 RETURNING gift`, amount, card).Scan(&gift); err != nil {
		return err
	}
	if gift < -100 {
		if legacy {
			c.db.ExecContext(ctx, `ROLLBACK TO SAVEPOINT spend`)
		} else if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT spend`); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Pay spends amount from card, never below zero.
func (c *Cards) Pay(ctx context.Context, card, amount int64) error {
	return c.spend(ctx, card, amount, false)
}
