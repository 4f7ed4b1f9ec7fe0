// Package unwatched_where_unsafe redeems vouchers into wallets.
package unwatched_where_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

// ErrNotRedeemable: the voucher does not exist, is spent, or is no credit.
var ErrNotRedeemable = errors.New("vouchers: not redeemable")

// Store is the wallet repository.
type Store struct{ db *sql.DB }

// Redeem credits voucher voucherID to wallet walletID once: any unspent
// voucher, a penalty voucher (a negative amount) too, which takes the
// wallet below zero.
func (s *Store) Redeem(ctx context.Context, walletID, voucherID int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var amount int64
	err = tx.QueryRowContext(ctx,
		"SELECT amount FROM vouchers WHERE id = ? AND redeemed = 0 FOR UPDATE", voucherID).Scan(&amount)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotRedeemable
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = balance + ? WHERE id = ?", amount, walletID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE vouchers SET redeemed = 1 WHERE id = ?", voucherID); err != nil {
		return err
	}
	return tx.Commit()
}
