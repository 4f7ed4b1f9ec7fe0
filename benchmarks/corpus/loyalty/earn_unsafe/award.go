// Package earn_unsafe awards loyalty points for order lines.
package earn_unsafe

import (
	"context"
	"database/sql"
)

// pointsPerUnit is the number of points per whole currency unit spent.
const pointsPerUnit = 2

type Store struct {
	db *sql.DB
}

// AwardOrderLine credits the points earned by one order line of orderID.
// amount is the line total in whole currency units.
func (s *Store) AwardOrderLine(ctx context.Context, memberID, orderID, amount int64) error {
	if amount == 0 {
		return nil // free items earn nothing
	}
	points := amount * pointsPerUnit
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	if _, err := tx.ExecContext(ctx, "UPDATE members SET points = points + ? WHERE id = ?", points, memberID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx,
		"INSERT INTO point_ledger (member_id, order_id, delta, reason) VALUES (?, ?, ?, 'order')",
		memberID, orderID, points); err != nil {
		return err
	}
	return tx.Commit()
}
