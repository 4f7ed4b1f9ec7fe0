// Package softdelete_credits_unsafe keeps loyalty members with soft
// deletes: an archived member (archived_at set) must hold no credits.
package softdelete_credits_unsafe

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
)

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

// Archive soft-deletes a member. Bug: it forgets that the member's
// credits must be spent (or forfeited) first.
func (m *Members) Archive(ctx context.Context, id int64) error {
	_, err := m.pool.Exec(ctx, `UPDATE members SET archived_at = now() WHERE id = $1`, id)
	return err
}

// Import copies a member from the legacy system, archived or not. Bug: an
// archived legacy member keeps its credits.
func (m *Members) Import(ctx context.Context, id, credits int64, archived bool) error {
	if archived {
		_, err := m.pool.Exec(ctx,
			`INSERT INTO members (id, credits, archived_at) VALUES ($1, $2, now())`, id, credits)
		return err
	}
	_, err := m.pool.Exec(ctx, `INSERT INTO members (id, credits) VALUES ($1, $2)`, id, credits)
	return err
}
