// Package expire_batches_safe expires points batch by batch: every earn
// creates a point_batches row that expires one year later.
package expire_batches_safe

import (
	"context"
	"database/sql"
)

type Store struct {
	db *sql.DB
}

// ExpireBatches removes the points of memberID's batches that expired at or
// before now, but never more than the member still has.
func (s *Store) ExpireBatches(ctx context.Context, memberID, now int64) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var balance int64
	if err := tx.QueryRowContext(ctx, "SELECT points FROM members WHERE id = ? FOR UPDATE", memberID).Scan(&balance); err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(ctx,
		"SELECT remaining FROM point_batches WHERE member_id = ? AND expires_at <= ? AND remaining > 0",
		memberID, now)
	if err != nil {
		return 0, err
	}
	var expired int64
	for rows.Next() {
		var remaining int64
		if err := rows.Scan(&remaining); err != nil {
			rows.Close()
			return 0, err
		}
		expired += remaining
	}
	rows.Close()
	if expired > balance {
		expired = balance // points already spent elsewhere
	}
	if _, err := tx.ExecContext(ctx, "UPDATE members SET points = ? WHERE id = ?", balance-expired, memberID); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx,
		"UPDATE point_batches SET remaining = 0 WHERE member_id = ? AND expires_at <= ?", memberID, now); err != nil {
		return 0, err
	}
	return expired, tx.Commit()
}
