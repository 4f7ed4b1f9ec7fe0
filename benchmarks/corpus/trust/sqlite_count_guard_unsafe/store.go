// Package sqlite_count_guard_unsafe deletes a customer after a COUNT(*) of its orders, but a purge skips the check.
package sqlite_count_guard_unsafe

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// ErrInUse is returned for a customer that still has orders.
var ErrInUse = errors.New("customer has orders")

// ErrNoCustomer is returned for an order of an unknown customer.
var ErrNoCustomer = errors.New("no such customer")

// Store keeps customers and their orders.
type Store struct{ DB *sql.DB }

// DeleteCustomer removes a customer that has no orders; purge skips the check (bug: its orders are left behind).
func (s *Store) DeleteCustomer(id int64, purge bool) error {
	var n int64
	if err := s.DB.QueryRow("SELECT COUNT(*) FROM orders WHERE customer_id = ?", id).Scan(&n); err != nil {
		return err
	}
	if !purge && n > 0 {
		return ErrInUse
	}
	_, err := s.DB.Exec("DELETE FROM customers WHERE id = ?", id)
	return err
}

// PlaceOrder creates an order for an existing customer.
func (s *Store) PlaceOrder(customer, total int64) error {
	var one int64
	err := s.DB.QueryRow("SELECT 1 FROM customers WHERE id = ?", customer).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoCustomer
	}
	if err != nil {
		return err
	}
	_, err = s.DB.Exec("INSERT INTO orders (customer_id, total) VALUES (?, ?)", customer, total)
	return err
}
