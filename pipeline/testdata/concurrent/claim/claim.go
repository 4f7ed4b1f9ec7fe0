// Package claim credits a one-time bonus to a user whose total is still
// 0, recording the claim in a table with UNIQUE (user_id): of two racing
// claims, the second INSERT fails once the first commits.
package claim

import (
	"context"
	"database/sql"
	"errors"
)

// Bonuses credits users.
type Bonuses struct{ db *sql.DB }

// Claim credits userID's bonus once.
func (b *Bonuses) Claim(ctx context.Context, userID int64) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var total int64
	if err := tx.QueryRowContext(ctx, "SELECT bonus_total FROM users WHERE id = $1", userID).Scan(&total); err != nil {
		return err
	}
	if total > 0 {
		return errors.New("already claimed")
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO bonus_claims (user_id, amount) VALUES ($1, 100)", userID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE users SET bonus_total = bonus_total + 100 WHERE id = $1", userID); err != nil {
		return err
	}
	return tx.Commit()
}
