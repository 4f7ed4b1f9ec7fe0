// Package expire_batches_unsafe expires points batch by batch: every earn
// creates a point_batches row that expires one year later.
package expire_batches_unsafe

import (
	"context"
	"database/sql"
)

type batch struct {
	id, remaining int64
}

type Store struct {
	db *sql.DB
}

// ExpireBatches removes the remaining points of memberID's batches that
// expired at or before now.
func (s *Store) ExpireBatches(ctx context.Context, memberID, now int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	rows, err := tx.QueryContext(ctx,
		"SELECT id, remaining FROM point_batches WHERE member_id = ? AND expires_at <= ? AND remaining > 0",
		memberID, now)
	if err != nil {
		return err
	}
	var expired []batch
	for rows.Next() {
		var b batch
		if err := rows.Scan(&b.id, &b.remaining); err != nil {
			rows.Close()
			return err
		}
		expired = append(expired, b)
	}
	rows.Close()

	for _, b := range expired {
		if _, err := tx.ExecContext(ctx, "UPDATE members SET points = points - ? WHERE id = ?", b.remaining, memberID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE point_batches SET remaining = 0 WHERE id = ?", b.id); err != nil {
			return err
		}
	}
	return tx.Commit()
}
