// Package convert converts an account's dollars into euros at a fixed
// rate: amt * eurPerUsdBps wraps around for a large positive amt, and
// the credit is negative.
package convert

import (
	"context"
	"database/sql"
	"errors"
)

const eurPerUsdBps = 9200

// ErrBadAmount rejects an amount that is not positive.
var ErrBadAmount = errors.New("amount must be positive")

// ToEUR moves amt cents from the account's dollars to its euros.
func ToEUR(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return ErrBadAmount
	}
	eur := amt * eurPerUsdBps / 10000
	_, err := db.ExecContext(ctx, `UPDATE accounts SET usd = usd - $1, eur = eur + $2 WHERE id = $3 AND usd >= $1`, amt, eur, id)
	return err
}
