// Package redeem_chain_safe redeems rewards through a chain of small helpers
// and a shared policy package.
package redeem_chain_safe

import (
	"context"
	"database/sql"
	"errors"

	"example.com/corpus/loyalty/redeem_chain_safe/rules"
)

var ErrInsufficientPoints = errors.New("loyalty: not enough points")

type Store struct {
	db *sql.DB
}

// Redeem spends the cost of rewardID plus the handling fee from memberID.
func (s *Store) Redeem(ctx context.Context, memberID, rewardID int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	cost, err := rewardCost(ctx, tx, rewardID)
	if err != nil {
		return err
	}
	if err := rules.ValidateCost(cost); err != nil {
		return err
	}
	balance, err := lockBalance(ctx, tx, memberID)
	if err != nil {
		return err
	}
	if !rules.CanAfford(balance, cost) {
		return ErrInsufficientPoints
	}
	if err := debit(ctx, tx, memberID, rules.Total(cost)); err != nil {
		return err
	}
	return tx.Commit()
}

func rewardCost(ctx context.Context, tx *sql.Tx, rewardID int64) (int64, error) {
	var cost int64
	err := tx.QueryRowContext(ctx, "SELECT cost FROM rewards WHERE id = ?", rewardID).Scan(&cost)
	return cost, err
}

func lockBalance(ctx context.Context, tx *sql.Tx, memberID int64) (int64, error) {
	var points int64
	err := tx.QueryRowContext(ctx, "SELECT points FROM members WHERE id = ? FOR UPDATE", memberID).Scan(&points)
	return points, err
}

func debit(ctx context.Context, tx *sql.Tx, memberID, points int64) error {
	_, err := tx.ExecContext(ctx, "UPDATE members SET points = points - ? WHERE id = ?", points, memberID)
	return err
}
