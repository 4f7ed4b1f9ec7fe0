// Package mysql_update_join_plan_unsafe renews an account's plan with one
// multi-table UPDATE that joins the plan the account row points to (adv19
// fiberplans renew).
package mysql_update_join_plan_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrPayment is returned when the credits do not cover the plan.
var ErrPayment = errors.New("not enough credits")

// Billing charges plans in credits.
type Billing struct{ db *sql.DB }

// Renew charges the account's current plan again. Bug: the WHERE only
// asks for positive credits, not credits that cover the plan.
func (b *Billing) Renew(ctx context.Context, id int64) error {
	res, err := b.db.ExecContext(ctx, `
UPDATE accounts a JOIN plans p ON p.id = a.plan_id
SET a.credits = a.credits - p.cost
WHERE a.id = ? AND a.credits > 0`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrPayment
	}
	return nil
}
