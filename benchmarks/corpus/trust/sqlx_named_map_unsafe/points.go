// Package sqlx_named_map_unsafe redeems loyalty points on MySQL through
// sqlx, binding the :name parameters from a map (sqlx binds a
// map[string]any by key, as it binds a struct by its db tags).
package sqlx_named_map_unsafe

import (
	"context"
	"errors"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
)

// ErrNotEnoughPoints means the member cannot afford the reward.
var ErrNotEnoughPoints = errors.New("points: not enough points")

// Points is the loyalty ledger.
type Points struct{ db *sqlx.DB }

func NewPoints(db *sqlx.DB) *Points { return &Points{db: db} }

// Redeem takes cost points from member (the WHERE lost its "points >=
// :cost": a member with fewer points goes negative).
func (p *Points) Redeem(ctx context.Context, member, cost int64) error {
	if cost <= 0 {
		return errors.New("points: cost must be positive")
	}
	args := map[string]any{"member": member, "cost": cost}
	res, err := p.db.NamedExecContext(ctx,
		"UPDATE members SET points = points - :cost WHERE id = :member", args)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrNotEnoughPoints
	}
	return nil
}
