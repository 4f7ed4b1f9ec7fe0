// Package null_limit_zero_unsafe dispenses cash against an optional daily
// limit, but reads "no limit" from a zero limit instead of from NULL: a
// card whose limit is 0 (a blocked card) gets no check at all.
package null_limit_zero_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// ErrLimit is returned when a withdrawal would pass the daily limit.
var ErrLimit = errors.New("atm: daily limit reached")

// ATM dispenses cash.
type ATM struct{ db *sql.DB }

// Dispense records a withdrawal of amt on card.
func (a *ATM) Dispense(ctx context.Context, card, amt int64) error {
	if amt <= 0 {
		return errors.New("atm: bad amount")
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var withdrawn int64
	var limit sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT withdrawn, daily_limit FROM cards WHERE id = $1 FOR UPDATE`, card).Scan(&withdrawn, &limit); err != nil {
		return err
	}
	if limit.Int64 != 0 && amt > limit.Int64-withdrawn {
		return ErrLimit
	}
	if _, err := tx.ExecContext(ctx, `UPDATE cards SET withdrawn = withdrawn + $1 WHERE id = $2`, amt, card); err != nil {
		return err
	}
	return tx.Commit()
}
