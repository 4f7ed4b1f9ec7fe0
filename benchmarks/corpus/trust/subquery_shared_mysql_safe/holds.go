// Package holds places holds on wallets (MySQL, database/sql): the hold row
// is inserted and its id taken from LastInsertId, and the UPDATE that takes
// the money reads the hold's amount back with a scalar subquery, in its SET
// and in its guard, each with its own `?` bound to the same id.
package holds

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrFunds is returned when the wallet does not cover the hold.
var ErrFunds = errors.New("insufficient funds")

// PlaceHold records a hold of amount on wallet and takes the hold's amount
// from the wallet when it covers it.
func PlaceHold(ctx context.Context, db *sql.DB, wallet, amount int64) (int64, error) {
	if amount <= 0 {
		return 0, errors.New("bad amount")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO holds (wallet_id, amount) VALUES (?, ?)`, wallet, amount)
	if err != nil {
		return 0, err
	}
	holdID, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	res, err = tx.ExecContext(ctx, `UPDATE wallets SET available = available - (SELECT amount FROM holds WHERE id = ?)
		WHERE id = ? AND available >= (SELECT amount FROM holds WHERE id = ?)`, holdID, wallet, holdID)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return 0, ErrFunds
	}
	return holdID, tx.Commit()
}
