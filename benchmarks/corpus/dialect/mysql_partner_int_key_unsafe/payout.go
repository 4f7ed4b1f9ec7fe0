// Package mysql_partner_int_key_unsafe pays partners out of their wallets,
// keyed by the partner's external id, a UNIQUE VARCHAR. The handler has
// the id as an int64 and binds it as one: MySQL then compares ext_id with
// a number, as numbers, so '7' and '07' (two keys) both match 7. The
// balance checked is one wallet's, the debit hits both.
package mysql_partner_int_key_unsafe

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
func (p *Payouts) Pay(ctx context.Context, partner int64, amount int64) error {
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
