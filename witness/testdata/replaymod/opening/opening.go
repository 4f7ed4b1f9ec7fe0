// Package opening credits deposits less a fee, creating the wallet on its
// first deposit.
package opening

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

const fee = 5

// Deposit adds amount less the fee to wallet id. A missing wallet
// (sql.ErrNoRows) is created with the net amount, which is negative when
// the amount does not cover the fee.
func Deposit(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("opening: amount must be positive")
	}
	net := amount - fee
	var bal int64
	err := db.QueryRowContext(ctx, `SELECT balance FROM wallets WHERE id = ?`, id).Scan(&bal)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = db.ExecContext(ctx, `INSERT INTO wallets (id, balance) VALUES (?, ?)`, id, net)
		return err
	case err != nil:
		return err
	}
	if bal+net < 0 {
		return errors.New("opening: the fee exceeds the balance")
	}
	_, err = db.ExecContext(ctx, `UPDATE wallets SET balance = balance + ? WHERE id = ?`, net, id)
	return err
}
