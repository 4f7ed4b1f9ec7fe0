// Package carts removes items from shopping carts: the cart's total goes
// down by the removed item's price, which the team assumes positive
// (--assume "cart_items.price > 0") — of the rows in the database, not
// of a row this code writes itself. RemoveItem has the sign wrong.
package carts

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// RemoveItem deletes an item and adds its price to the cart's total
// instead of subtracting it: with a positive price the total passes the
// limit (a cart at its limit, any item of it).
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
	if _, err := tx.ExecContext(ctx, `UPDATE carts SET total = total + $1 WHERE id = $2`, price, cartID); err != nil {
		return err
	}
	return tx.Commit()
}

// ReplaceItem adds an item at a price the caller gives (unchecked) and
// removes it again in the same transaction, lowering the cart's total by
// the price the DELETE returns: the row is the one just inserted, so the
// assumption says nothing of it, and a negative price raises the total
// past the limit. dbverify does not keep the values of rows written to a
// table the constraint does not watch: UNKNOWN, naming the DELETE.
func ReplaceItem(ctx context.Context, db *sql.DB, cartID, itemID, price int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO cart_items (id, cart_id, price) VALUES ($1, $2, $3)`, itemID, cartID, price); err != nil {
		return err
	}
	var cart, removed int64
	err = tx.QueryRowContext(ctx, `DELETE FROM cart_items WHERE id = $1 RETURNING cart_id, price`, itemID).Scan(&cart, &removed)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE carts SET total = total - $1 WHERE id = $2`, removed, cart); err != nil {
		return err
	}
	return tx.Commit()
}
