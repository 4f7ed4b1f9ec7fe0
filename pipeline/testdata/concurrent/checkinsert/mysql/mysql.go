// Package mysql redeems coupons on MySQL (InnoDB): at the default
// REPEATABLE READ a plain read of the missing row takes no lock and two
// redemptions both insert (a check-then-insert finding); a FOR UPDATE
// read takes a gap lock there (the two inserts deadlock, one fails), but
// not at READ COMMITTED; SERIALIZABLE makes every read a locking one.
package mysql

import (
	"context"
	"database/sql"
	"errors"
)

// Store is the coupon store.
type Store struct{ db *sql.DB }

var errRedeemed = errors.New("coupon already redeemed")

// Redeem counts the redemptions at the default level.
func (s *Store) Redeem(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES (?, ?, ?)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// RedeemForUpdate counts the redemptions with FOR UPDATE at the default level.
func (s *Store) RedeemForUpdate(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ? FOR UPDATE", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES (?, ?, ?)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// RedeemForUpdateRC counts the redemptions with FOR UPDATE at READ COMMITTED.
func (s *Store) RedeemForUpdateRC(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ? FOR UPDATE", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES (?, ?, ?)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// RedeemSerializable counts the redemptions at SERIALIZABLE.
func (s *Store) RedeemSerializable(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES (?, ?, ?)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}
