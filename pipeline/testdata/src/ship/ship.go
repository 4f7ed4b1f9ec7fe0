// Package ship ships reserved stock (MySQL placeholders): the guard is
// reserved >= qty, and stock - qty >= 0 follows from the CHECK
// reserved <= stock, which the database enforces.
package ship

import (
	"context"
	"database/sql"
	"errors"
)

// Inventory is the inventory repository.
type Inventory struct{ db *sql.DB }

// Ship hands qty reserved units of itemID to the carrier.
func (inv *Inventory) Ship(ctx context.Context, itemID, qty int64) error {
	if qty <= 0 {
		return errors.New("ship: quantity must be positive")
	}
	res, err := inv.db.ExecContext(ctx,
		"UPDATE `inventory_items` SET `stock` = `stock` - ?, `reserved` = `reserved` - ? WHERE `id` = ? AND `reserved` >= ?",
		qty, qty, itemID, qty)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("ship: quantity exceeds the reservation")
	}
	return nil
}
