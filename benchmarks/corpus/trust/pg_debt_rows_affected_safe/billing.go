// Package pg_debt_rows_affected_safe charges accounts and books what an
// account cannot cover as a debt to collect later.
package pg_debt_rows_affected_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var ErrNegativeAmount = errors.New("billing: negative amount")

// Billing is the billing service.
type Billing struct{ db *sql.DB }

// Charge takes amt from account id when its balance covers it (the
// conditional UPDATE matches, RowsAffected is 1); otherwise it records the
// shortfall amt - balance as a debt.
func (b *Billing) Charge(ctx context.Context, id, amt int64) error {
	if amt < 0 {
		return ErrNegativeAmount
	}
	var bal int64
	if err := b.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	res, err := b.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amt, id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		_, err = b.db.ExecContext(ctx, "INSERT INTO debts (account_id, amount) VALUES ($1, $2)", id, amt-bal)
	}
	return err
}
