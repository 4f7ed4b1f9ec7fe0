// Package mysql_bonus_unique_alone_unsafe pays the welcome bonus of a loyalty programme on
// MySQL: each user may claim it once.
//
// Check-then-insert with UNIQUE (user_id) on MySQL: the racing second INSERT
// waits for the first and fails with a duplicate-key error (1062).
package mysql_bonus_unique_alone_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
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
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM bonus_claims WHERE user_id = ?", userID).Scan(&n); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	if n > 0 {
		return ErrAlreadyClaimed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO bonus_claims (user_id, amount) VALUES (?, ?)", userID, WelcomeBonus); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE users SET bonus_total = bonus_total + ? WHERE id = ?", WelcomeBonus, userID); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	return tx.Commit()
}
