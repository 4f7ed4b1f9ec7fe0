// Package transfer_safe lets members gift points to each other.
package transfer_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount      = errors.New("loyalty: amount must be positive")
	ErrInsufficientPoints = errors.New("loyalty: not enough points")
)

type Store struct {
	db *sql.DB
}

// Transfer moves amount points from fromID to toID.
func (s *Store) Transfer(ctx context.Context, fromID, toID, amount int64) error {
	if amount <= 0 {
		return ErrInvalidAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var points int64
	if err := tx.QueryRowContext(ctx, "SELECT points FROM members WHERE id = ? FOR UPDATE", fromID).Scan(&points); err != nil {
		return err
	}
	if points < amount {
		return ErrInsufficientPoints
	}
	if _, err := tx.ExecContext(ctx, "UPDATE members SET points = points - ? WHERE id = ?", amount, fromID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE members SET points = points + ? WHERE id = ?", amount, toID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO point_transfers (from_id, to_id, points) VALUES (?, ?, ?)", fromID, toID, amount); err != nil {
		return err
	}
	return tx.Commit()
}
