// Package pg_bonus_for_update_absent_unsafe pays the welcome bonus of a loyalty programme on
// PostgreSQL: each user may claim it once.
//
// Check-then-insert "protected" by SELECT ... FOR UPDATE on the claim row
// (supertokens-core#86): Postgres locks only rows that exist, so when there
// is no claim yet both requests lock nothing, both insert and the user is
// credited twice.
package pg_bonus_for_update_absent_unsafe

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
	// Lock the user's claim while deciding.
	rows, err := tx.QueryContext(ctx, "SELECT id FROM bonus_claims WHERE user_id = $1 FOR UPDATE", userID)
	if err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	claimed := rows.Next()
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	if claimed {
		return ErrAlreadyClaimed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO bonus_claims (user_id, amount) VALUES ($1, $2)", userID, WelcomeBonus); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE users SET bonus_total = bonus_total + $1 WHERE id = $2", WelcomeBonus, userID); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	return tx.Commit()
}
