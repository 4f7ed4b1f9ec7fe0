// Package err_wrapped_sentinel_safe keeps loyalty points behind a small
// repository interface.
package err_wrapped_sentinel_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

// ErrNoMember is returned (wrapped) for a member without a points row.
var ErrNoMember = errors.New("loyalty: no such member")

// Points is the repository of point balances.
type Points interface {
	Balance(ctx context.Context, member int64) (int64, error)
	Open(ctx context.Context, member, balance int64) error
	Add(ctx context.Context, member, delta int64) error
}

type pgPoints struct{ db *sql.DB }

// NewPoints returns the PostgreSQL repository.
func NewPoints(db *sql.DB) Points { return &pgPoints{db: db} }

func (p *pgPoints) Balance(ctx context.Context, member int64) (int64, error) {
	var bal int64
	err := p.db.QueryRowContext(ctx, "SELECT balance FROM points WHERE member_id = $1", member).Scan(&bal)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("balance of member %d: %w", member, ErrNoMember)
	}
	return bal, err
}

func (p *pgPoints) Open(ctx context.Context, member, balance int64) error {
	_, err := p.db.ExecContext(ctx, "INSERT INTO points (member_id, balance) VALUES ($1, $2)", member, balance)
	return err
}

func (p *pgPoints) Add(ctx context.Context, member, delta int64) error {
	_, err := p.db.ExecContext(ctx, "UPDATE points SET balance = balance + $1 WHERE member_id = $2", delta, member)
	return err
}

// Service spends and grants points.
type Service struct{ points Points }

// NewService returns the service over repository p.
func NewService(p Points) *Service { return &Service{points: p} }

// Spend takes pts points from member. A member the repository does not
// know is meant to be opened owing the points, but the comparison with
// == never matches the wrapped error: that branch is dead, and an unknown
// member gets the repository's error.
func (s *Service) Spend(ctx context.Context, member, pts int64) error {
	if pts <= 0 {
		return errors.New("loyalty: points must be positive")
	}
	bal, err := s.points.Balance(ctx, member)
	if err == ErrNoMember {
		return s.points.Open(ctx, member, -pts)
	}
	if err != nil {
		return err
	}
	if bal < pts {
		return errors.New("loyalty: not enough points")
	}
	return s.points.Add(ctx, member, -pts)
}
