// Package rewards redeems loyalty points. The service keeps its spender
// in an unexported interface field, filled with a closure converted to a
// function adapter type (the http.HandlerFunc pattern): only Redeem calls
// it, after its check.
package rewards

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Spender takes points from a member.
type Spender interface {
	Spend(ctx context.Context, member, points int64) error
}

// SpenderFunc adapts a function to a Spender.
type SpenderFunc func(ctx context.Context, member, points int64) error

// Spend calls f.
func (f SpenderFunc) Spend(ctx context.Context, member, points int64) error {
	return f(ctx, member, points)
}

// ErrShort is returned when a member has too few points.
var ErrShort = errors.New("not enough points")

// Rewards redeems points; its spender is private to this package.
type Rewards struct {
	db    *sql.DB
	spend Spender
	fee   int64
}

// New wires the rewards with a plain SQL spender and a handling fee.
func New(db *sql.DB, fee int64) *Rewards {
	if fee < 0 {
		fee = 0
	}
	return &Rewards{db: db, fee: fee, spend: SpenderFunc(func(ctx context.Context, member, points int64) error {
		_, err := db.ExecContext(ctx, `UPDATE members SET points = points - ? WHERE id = ?`, points, member)
		return err
	})}
}

// Redeem takes cost points plus the handling fee if the member has them.
func (r *Rewards) Redeem(ctx context.Context, member, cost int64) error {
	if cost <= 0 || cost > 1_000_000 || r.fee > 1_000 {
		return errors.New("bad cost")
	}
	var have int64
	if err := r.db.QueryRowContext(ctx, `SELECT points FROM members WHERE id = ?`, member).Scan(&have); err != nil {
		return err
	}
	if have < cost+r.fee {
		return ErrShort
	}
	return r.spend.Spend(ctx, member, cost+r.fee)
}
