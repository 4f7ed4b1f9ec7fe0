// Package carts removes items from shopping carts: the cart's total goes
// down by the removed item's price, which the team assumes positive
// (--assume "cart_items.price > 0": the items are written by another
// service that validates prices).
package carts

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// RemoveItem deletes an item and lowers its cart's total by the price
// the DELETE returns: a row of the initial database, so its price is
// positive by the assumption, and the total stays within the limit.
func RemoveItem(ctx context.Context, db *sql.DB, itemID int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var cartID, price int64
	err = tx.QueryRowContext(ctx, `DELETE FROM cart_items WHERE id = $1 RETURNING cart_id, price`, itemID).Scan(&cartID, &price)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE carts SET total = total - $1 WHERE id = $2`, price, cartID); err != nil {
		return err
	}
	return tx.Commit()
}
