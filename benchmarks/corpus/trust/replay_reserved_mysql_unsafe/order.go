// Package replay_reserved_mysql_unsafe takes orders on MySQL in a table
// named by a reserved word (`order`), whose rows reference a customer.
// The quantity is taken from stock without a check: an order oversells.
// (Replay: the order row references a customer the counterexample does
// not list, which must be seeded, and resetting the tables must quote
// `order`.)
package replay_reserved_mysql_unsafe

import (
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrBadQty is returned for a quantity that is not positive.
var ErrBadQty = errors.New("quantity must be positive")

// PlaceOrder records an order of qty units of a product for a customer
// and takes them from stock.
func PlaceOrder(db *sql.DB, customerID, productID int64, qty int) error {
	if qty <= 0 {
		return ErrBadQty
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.Exec("INSERT INTO `order` (customer_id) VALUES (?)", customerID)
	if err != nil {
		return err
	}
	orderID, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if _, err := tx.Exec("INSERT INTO order_item (order_id, product_id, qty) VALUES (?, ?, ?)", orderID, productID, qty); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE products SET stock = stock - ? WHERE id = ?", qty, productID); err != nil {
		return err
	}
	return tx.Commit()
}
