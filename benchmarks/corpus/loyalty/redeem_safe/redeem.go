// Package redeem_safe lets members spend points on rewards.
package redeem_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidCost        = errors.New("loyalty: cost must be positive")
	ErrNoMember           = errors.New("loyalty: no such member")
	ErrInsufficientPoints = errors.New("loyalty: not enough points")
)

type Store struct {
	db *sql.DB
}

// Redeem spends cost points of memberID on rewardID.
func (s *Store) Redeem(ctx context.Context, memberID, rewardID, cost int64) error {
	if cost <= 0 {
		return ErrInvalidCost
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var points int64
	err = tx.QueryRowContext(ctx, "SELECT points FROM members WHERE id = ? FOR UPDATE", memberID).Scan(&points)
	switch {
	case err == sql.ErrNoRows:
		return ErrNoMember
	case err != nil:
		return err
	case points < cost:
		return ErrInsufficientPoints
	}
	if _, err := tx.ExecContext(ctx, "UPDATE members SET points = points - ? WHERE id = ?", cost, memberID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO redemptions (member_id, reward_id, points) VALUES (?, ?, ?)", memberID, rewardID, cost); err != nil {
		return err
	}
	return tx.Commit()
}
