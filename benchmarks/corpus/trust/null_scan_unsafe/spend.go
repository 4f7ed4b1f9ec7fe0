// Package null_scan_unsafe spends from a gift card whose balance column may
// be NULL (a card not activated yet); it scans into sql.NullInt64.
package null_scan_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrDeclined = errors.New("giftcards: declined")

const (
	selectBalance = "SELECT balance FROM giftcards WHERE code = ?"
	spendCard     = "UPDATE giftcards SET balance = balance - ? WHERE code = ?"
)

// Cards is the gift-card store.
type Cards struct{ db *sql.DB }

// Spend takes amt from card code.
func (c *Cards) Spend(ctx context.Context, code string, amt int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal sql.NullInt64
	if err := tx.QueryRowContext(ctx, selectBalance+" FOR UPDATE", code).Scan(&bal); err != nil {
		return err
	}
	if !bal.Valid { // BUG: the balance itself is never compared with amt
		return ErrDeclined
	}
	if _, err := tx.ExecContext(ctx, spendCard, amt, code); err != nil {
		return err
	}
	return tx.Commit()
}
