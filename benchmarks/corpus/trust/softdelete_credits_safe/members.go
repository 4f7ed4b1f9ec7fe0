// Package softdelete_credits_safe keeps loyalty members with soft deletes:
// an archived member (archived_at set) holds no credits.
package softdelete_credits_safe

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
)

var ErrNotArchivable = errors.New("member still holds credits or is archived")

type Members struct{ pool *pgxpool.Pool }

func New(pool *pgxpool.Pool) *Members { return &Members{pool: pool} }

// Award adds credits to an active member only.
func (m *Members) Award(ctx context.Context, id, credits int64) error {
	if credits <= 0 {
		return errors.New("credits must be positive")
	}
	_, err := m.pool.Exec(ctx,
		`UPDATE members SET credits = credits + $1 WHERE id = $2 AND archived_at IS NULL`,
		credits, id)
	return err
}

// Archive soft-deletes a member whose credits are spent.
func (m *Members) Archive(ctx context.Context, id int64) error {
	tag, err := m.pool.Exec(ctx,
		`UPDATE members SET archived_at = now() WHERE id = $1 AND credits = 0 AND archived_at IS NULL`, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrNotArchivable
	}
	return nil
}

// Restore brings an archived member back.
func (m *Members) Restore(ctx context.Context, id int64) error {
	_, err := m.pool.Exec(ctx, `UPDATE members SET archived_at = NULL WHERE id = $1`, id)
	return err
}

// Join creates an active member with a welcome bonus.
func (m *Members) Join(ctx context.Context, id int64) error {
	_, err := m.pool.Exec(ctx, `INSERT INTO members (id, credits) VALUES ($1, 10)`, id)
	return err
}
