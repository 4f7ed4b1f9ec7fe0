// Package holds moves a hold to another wallet (MySQL, database/sql): the
// UPDATE takes one hold's amount but guards with another's; the two
// subqueries have one text, each `?` bound to a different hold.
package holds

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrFunds is returned when the wallet does not cover the hold.
var ErrFunds = errors.New("insufficient funds")

// Replace takes hold next's amount from wallet in place of hold prev's.
//
// BUG: the guard compares the balance with prev's amount, not next's: a
// larger next overdraws the wallet.
func Replace(ctx context.Context, db *sql.DB, wallet, prev, next int64) error {
	res, err := db.ExecContext(ctx, `UPDATE wallets SET available = available - (SELECT amount FROM holds WHERE id = ?)
		WHERE id = ? AND available >= (SELECT amount FROM holds WHERE id = ?)`, next, wallet, prev)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrFunds
	}
	return nil
}
