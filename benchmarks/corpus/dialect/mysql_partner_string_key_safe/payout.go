// Package mysql_partner_string_key_safe pays partners out of their
// wallets, keyed by the partner's external id, a UNIQUE VARCHAR, bound as
// the string it is: MySQL compares strings under the column's collation,
// the same one its UNIQUE index uses, so the row read and the row debited
// are one.
package mysql_partner_string_key_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrInsufficient is returned when the wallet cannot cover the payout.
var ErrInsufficient = errors.New("payout: insufficient balance")

// Payouts is the partner wallet store.
type Payouts struct{ DB *sql.DB }

// Pay takes amount out of partner's wallet.
func (p *Payouts) Pay(ctx context.Context, partner string, amount int64) error {
	if amount <= 0 {
		return errors.New("payout: amount must be positive")
	}
	var balance int64
	if err := p.DB.QueryRowContext(ctx, "SELECT balance FROM partner_wallets WHERE ext_id = ?", partner).Scan(&balance); err != nil {
		return err
	}
	if balance < amount {
		return ErrInsufficient
	}
	_, err := p.DB.ExecContext(ctx, "UPDATE partner_wallets SET balance = balance - ? WHERE ext_id = ?", amount, partner)
	return err
}
