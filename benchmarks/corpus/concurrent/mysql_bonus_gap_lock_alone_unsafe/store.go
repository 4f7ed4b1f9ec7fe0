// Package mysql_bonus_gap_lock_alone_unsafe pays the welcome bonus of a loyalty programme on
// MySQL: each user may claim it once.
//
// Check-then-insert with SELECT ... FOR UPDATE on an indexed user_id at
// InnoDB REPEATABLE READ: the locking read of the absent claim takes a gap
// lock; the two racing claims block each other's INSERT and InnoDB rolls one
// back as a deadlock (1213). Postgres would lock nothing here (see
// pg_bonus_for_update_absent_unsafe).
package mysql_bonus_gap_lock_alone_unsafe

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
	// Lock the user's claim while deciding.
	rows, err := tx.QueryContext(ctx, "SELECT id FROM bonus_claims WHERE user_id = ? FOR UPDATE", userID)
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
	if _, err := tx.ExecContext(ctx, "INSERT INTO bonus_claims (user_id, amount) VALUES (?, ?)", userID, WelcomeBonus); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE users SET bonus_total = bonus_total + ? WHERE id = ?", WelcomeBonus, userID); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	return tx.Commit()
}
