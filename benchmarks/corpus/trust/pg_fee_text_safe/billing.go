// Package pg_fee_text_safe charges the monthly maintenance fee of a
// banking service on PostgreSQL. The fee comes from the pricing table of
// the product as text ("25"), and is bound as a string parameter: the
// server converts it to the column's integer type.
package pg_fee_text_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

// ErrInsufficient means the balance does not cover the fee.
var ErrInsufficient = errors.New("billing: balance does not cover the fee")

// monthlyFee is the maintenance fee in cents, as the pricing sheet has it.
const monthlyFee = "25"

// Billing charges account fees.
type Billing struct{ db *sql.DB }

func NewBilling(db *sql.DB) *Billing { return &Billing{db: db} }

// ChargeMonthlyFee takes the fee from the account when the balance
// covers it.
func (b *Billing) ChargeMonthlyFee(ctx context.Context, accountID int64) error {
	res, err := b.db.ExecContext(ctx,
		`UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1`,
		monthlyFee, accountID)
	if err != nil {
		return fmt.Errorf("charge fee: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("charge fee: %w", err)
	}
	if n == 0 {
		return ErrInsufficient
	}
	return nil
}
