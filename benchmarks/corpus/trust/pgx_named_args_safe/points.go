// Package points redeems loyalty points (PostgreSQL, pgx v5). Statements
// name their placeholders (@member, @points) and take their values from a
// pgx.NamedArgs map.
package points

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNotEnough is returned when a member cannot pay for a reward.
var ErrNotEnough = errors.New("not enough points")

// Service redeems rewards.
type Service struct{ pool *pgxpool.Pool }

// Redeem takes cost points from member for a reward.
func (s *Service) Redeem(ctx context.Context, member, cost int64) error {
	if cost <= 0 {
		return fmt.Errorf("invalid cost %d", cost)
	}
	tag, err := s.pool.Exec(ctx,
		`UPDATE members SET points = points - @cost
		 WHERE id = @member AND points >= @cost`,
		pgx.NamedArgs{"member": member, "cost": cost})
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotEnough
	}
	return nil
}

// RedeemChecked reads the balance first, in a transaction.
func (s *Service) RedeemChecked(ctx context.Context, member, cost int64) error {
	if cost <= 0 {
		return fmt.Errorf("invalid cost %d", cost)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var points int64
	if err := tx.QueryRow(ctx, "SELECT points FROM members WHERE id = @id FOR UPDATE",
		pgx.NamedArgs{"id": member}).Scan(&points); err != nil {
		return err
	}
	if points < cost {
		return ErrNotEnough
	}
	if _, err := tx.Exec(ctx, "UPDATE members SET points = points - @cost WHERE id = @id",
		pgx.NamedArgs{"id": member, "cost": cost}); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
