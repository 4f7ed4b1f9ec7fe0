// Package mysql_checkout_catalog_for_update_safe is the checkout of a shop on MySQL (InnoDB).
//
// Checkout prices an order from the catalog — the customer's tier, the
// tier's discount, the zone's shipping fee and tax — then locks the
// product's stock row (SELECT … FOR UPDATE), checks the stock in Go and
// takes the quantity off, all in one REPEATABLE READ transaction (the
// InnoDB default). The second checkout of the last unit waits for the
// first one's lock and reads the committed 0 (a locking read reads the
// latest version): it refuses.
package mysql_checkout_catalog_for_update_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrBadQuantity = errors.New("checkout: quantity must be positive")
	ErrOutOfStock  = errors.New("checkout: out of stock")
)

// flatFee is the shipping fee of a zone without its own.
const flatFee = 10

// Shop is the checkout service.
type Shop struct{ db *sql.DB }

func NewShop(db *sql.DB) *Shop { return &Shop{db: db} }

// Checkout sells qty units of product at unitPrice to customer, shipped
// to zone, and returns the order's total.
func (s *Shop) Checkout(ctx context.Context, customer, product, zone, qty, unitPrice int64) (int64, error) {
	if qty <= 0 || unitPrice < 0 {
		return 0, ErrBadQuantity
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("checkout: %w", err)
	}
	defer tx.Rollback()
	// Guests have no customer row (tier 0); a tier, zone or region without
	// a row gets no discount, the flat shipping fee and no tax.
	tier, discount, fee, tax := int64(0), int64(0), int64(flatFee), int64(0)
	err = tx.QueryRowContext(ctx, "SELECT tier FROM customers WHERE id = ?", customer).Scan(&tier)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("checkout: customer: %w", err)
	}
	err = tx.QueryRowContext(ctx, "SELECT percent FROM tier_discounts WHERE tier = ?", tier).Scan(&discount)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("checkout: discount: %w", err)
	}
	err = tx.QueryRowContext(ctx, "SELECT fee FROM shipping_zones WHERE zone = ?", zone).Scan(&fee)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("checkout: shipping: %w", err)
	}
	err = tx.QueryRowContext(ctx, "SELECT percent FROM tax_rates WHERE zone = ?", zone).Scan(&tax)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("checkout: tax: %w", err)
	}
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM inventory WHERE product_id = ? FOR UPDATE", product).Scan(&stock); err != nil {
		return 0, fmt.Errorf("checkout: stock: %w", err)
	}
	if stock < qty {
		return 0, ErrOutOfStock
	}
	if _, err := tx.ExecContext(ctx, "UPDATE inventory SET stock = stock - ? WHERE product_id = ?", qty, product); err != nil {
		return 0, fmt.Errorf("checkout: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("checkout: %w", err)
	}
	net := unitPrice * qty * (100 - discount) / 100
	return net + net*tax/100 + fee, nil
}
