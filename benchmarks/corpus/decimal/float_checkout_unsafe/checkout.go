// Package float_checkout_unsafe lets customers pay orders with their store
// credit (MySQL). Prices and credit are float64, the credit column DOUBLE.
package float_checkout_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrEmptyCart          = errors.New("checkout: empty cart")
	ErrInsufficientCredit = errors.New("checkout: not enough store credit")
)

const (
	memberDiscount = 0.05 // members pay 5% less
	pointsPerUnit  = 10.0 // one loyalty point per 10.00 spent
	selectCustomer = "SELECT credit, member FROM customers WHERE id = ?"
	chargeCredit   = "UPDATE customers SET credit = credit - ?, points = points + ? WHERE id = ?"
)

// Checkout charges orders.
type Checkout struct {
	db *sql.DB
}

// NewCheckout returns a checkout over db.
func NewCheckout(db *sql.DB) *Checkout { return &Checkout{db: db} }

// amountDue is what a cart of the given subtotal costs after the member
// discount.
func amountDue(subtotal float64, member bool) float64 {
	if member {
		return subtotal - subtotal*memberDiscount
	}
	return subtotal
}

// PayWithCredit charges a cart to the customer's store credit and awards
// loyalty points. It returns the amount charged.
func (c *Checkout) PayWithCredit(ctx context.Context, customerID int64, subtotal float64) (float64, error) {
	if subtotal <= 0 {
		return 0, ErrEmptyCart
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("checkout: begin: %w", err)
	}
	defer tx.Rollback()

	var credit float64
	var member bool
	if err := tx.QueryRowContext(ctx, selectCustomer, customerID).Scan(&credit, &member); err != nil {
		return 0, fmt.Errorf("checkout: read customer: %w", err)
	}
	due := amountDue(subtotal, member)
	if credit < subtotal-subtotal*memberDiscount {
		return 0, ErrInsufficientCredit
	}
	points := int64(due / pointsPerUnit)
	if _, err := tx.ExecContext(ctx, chargeCredit, due, points, customerID); err != nil {
		return 0, fmt.Errorf("checkout: charge: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("checkout: commit: %w", err)
	}
	return due, nil
}
