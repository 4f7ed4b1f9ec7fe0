// Package pg_debt_rows_affected_unsafe charges accounts and books what an
// account cannot cover as a debt to collect later.
package pg_debt_rows_affected_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var ErrNegativeAmount = errors.New("billing: negative amount")

// Billing is the billing service.
type Billing struct{ db *sql.DB }

// Charge takes amt from account id when its balance covers it, else
// records the shortfall as a debt, deciding on the balance it read (0 for
// an account not opened yet).
func (b *Billing) Charge(ctx context.Context, id, amt int64) error {
	if amt < 0 {
		return ErrNegativeAmount
	}
	var bal int64
	err := b.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal)
	if errors.Is(err, sql.ErrNoRows) {
		bal = 0 // an account not opened yet holds nothing
	} else if err != nil {
		return err
	}
	if bal >= amt {
		_, err = b.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amt, id)
		return err
	}
	// BUG: the shortfall is amt - bal; bal - amt books a negative debt.
	_, err = b.db.ExecContext(ctx, "INSERT INTO debts (account_id, amount) VALUES ($1, $2)", id, bal-amt)
	return err
}
