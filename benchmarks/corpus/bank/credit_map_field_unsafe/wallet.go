// Package credit_map_field_unsafe debits wallets, allowing each plan a
// credit line kept in a map the constructor fills: every plan's credit
// is 0; but staff wallets skip the check, so a staff debit takes the
// balance below 0.
package credit_map_field_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// ErrFunds is returned when the balance and the plan's credit do not
// cover the debit.
var ErrFunds = errors.New("insufficient funds")

// Wallets debits wallets.
type Wallets struct {
	db     *sql.DB
	credit map[string]int64
}

// NewWallets is the only constructor: no plan has credit yet.
func NewWallets(db *sql.DB) *Wallets {
	return &Wallets{db: db, credit: map[string]int64{"free": 0, "pro": 0}}
}

// Debit takes amount from wallet id, allowing the plan's credit; staff
// wallets are not checked.
func (w *Wallets) Debit(ctx context.Context, id int64, plan string, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	var bal int64
	if err := w.db.QueryRowContext(ctx, `SELECT balance FROM wallets WHERE id = $1`, id).Scan(&bal); err != nil {
		return err
	}
	if plan != "staff" && bal+w.credit[plan] < amount {
		return ErrFunds
	}
	_, err := w.db.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amount, id)
	return err
}
