// Package mysql_half_price_unsafe is the rewards store of a loyalty service
// on MySQL: during a promotion a reward costs half its points.
package mysql_half_price_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrBadCost      = errors.New("rewards: cost must be positive")
	ErrNotEnough    = errors.New("rewards: not enough points")
	ErrNoSuchMember = errors.New("rewards: no such member")
)

// Rewards redeems loyalty points.
type Rewards struct{ db *sql.DB }

func NewRewards(db *sql.DB) *Rewards { return &Rewards{db: db} }

// RedeemHalfPrice charges half of cost if the member has that many
// points. The guard uses integer division (DIV) but the charge is MySQL's
// exact division: cost 3 charges 1.5, and a member with 1 point ends with
// -0.5, which the integer column rounds to -1.
func (r *Rewards) RedeemHalfPrice(ctx context.Context, memberID, cost int64) error {
	if cost <= 0 {
		return ErrBadCost
	}
	res, err := r.db.ExecContext(ctx,
		"UPDATE members SET points = points - ? / 2 WHERE id = ? AND points >= ? DIV 2",
		cost, memberID, cost)
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if n == 0 {
		return ErrNotEnough
	}
	return nil
}
