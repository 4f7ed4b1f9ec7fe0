// Package redeem_fee_unsafe lets members order physical rewards with points;
// shipping is paid in points too.
package redeem_fee_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

// shippingPoints is the flat shipping charge for physical rewards.
const shippingPoints = 25

var ErrInsufficientPoints = errors.New("loyalty: not enough points")

type Store struct {
	db *sql.DB
}

// OrderReward ships rewardID to memberID and charges its cost plus shipping.
func (s *Store) OrderReward(ctx context.Context, memberID, rewardID int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var cost int64
	if err := tx.QueryRowContext(ctx, "SELECT cost FROM rewards WHERE id = ?", rewardID).Scan(&cost); err != nil {
		return err
	}
	var points int64
	if err := tx.QueryRowContext(ctx, "SELECT points FROM members WHERE id = ? FOR UPDATE", memberID).Scan(&points); err != nil {
		return err
	}
	if points < cost {
		return ErrInsufficientPoints
	}
	total := cost + shippingPoints
	if _, err := tx.ExecContext(ctx, "UPDATE members SET points = points - ? WHERE id = ?", total, memberID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO reward_orders (member_id, reward_id, points) VALUES (?, ?, ?)", memberID, rewardID, total); err != nil {
		return err
	}
	return tx.Commit()
}
