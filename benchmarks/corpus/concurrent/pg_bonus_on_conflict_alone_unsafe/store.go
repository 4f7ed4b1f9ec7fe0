// Package pg_bonus_on_conflict_alone_unsafe pays the welcome bonus of a loyalty programme on
// PostgreSQL: each user may claim it once.
//
// The claim as INSERT ... ON CONFLICT (user_id) DO NOTHING with RowsAffected
// deciding whether the bonus is credited: the losing request inserts nothing
// and returns ErrAlreadyClaimed.
package pg_bonus_on_conflict_alone_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// WelcomeBonus is the one-time bonus.
const WelcomeBonus = 100

var ErrAlreadyClaimed = errors.New("bonus: already claimed")

// Bonuses records claims and credits users.
type Bonuses struct{ db *sql.DB }

func NewBonuses(db *sql.DB) *Bonuses { return &Bonuses{db: db} }

// Claim records userID's welcome-bonus claim and credits the bonus.
func (b *Bonuses) Claim(ctx context.Context, userID int64) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "INSERT INTO bonus_claims (user_id, amount) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING", userID, WelcomeBonus)
	if err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("claim: %w", err)
	} else if n == 0 {
		return ErrAlreadyClaimed
	}
	if _, err := tx.ExecContext(ctx, "UPDATE users SET bonus_total = bonus_total + $1 WHERE id = $2", WelcomeBonus, userID); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	return tx.Commit()
}
