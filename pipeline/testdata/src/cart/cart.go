// Package cart adds catalogue items to carts (Postgres placeholders):
// the cart total grows by price * qty, which is non-negative when prices
// are (--assume "products.price >= 0"; the entry never writes products).
// The product is computed in SQL, where an overflow is an error: in Go,
// price*qty would wrap around to a negative number for a huge qty.
package cart

import (
	"context"
	"database/sql"
	"errors"
)

// Carts is the cart repository.
type Carts struct{ db *sql.DB }

// AddItem adds qty units of productID to cartID at the catalogue price.
func (c *Carts) AddItem(ctx context.Context, cartID, productID, qty int64) error {
	if qty <= 0 {
		return errors.New("cart: quantity must be positive")
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var price int64
	if err := tx.QueryRowContext(ctx, `SELECT price FROM products WHERE id = $1`, productID).Scan(&price); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE carts SET total = total + $1::bigint * $2 WHERE id = $3`, price, qty, cartID); err != nil {
		return err
	}
	return tx.Commit()
}
