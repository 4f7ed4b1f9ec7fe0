// Package sqlite_guest_orders is a shop on SQLite whose orders refer to a
// customer, or to none (a guest order has a NULL customer_id), under
// orders.customer_id IN (SELECT id FROM customers). SQL's NULL IN (SELECT
// id FROM customers) is NULL — the condition holds — while customers has
// a row, and FALSE when it has none: a guest order breaks it exactly
// when there is no customer (an independent tester's m9 and m10).
//
// PlaceOrder inserts a guest order whatever the customers; PlaceGuestOrder
// first reads some customer. DeleteCustomer deletes a customer without
// orders, which may be the last one; RetireCustomer deletes one only
// while another customer exists.
package sqlite_guest_orders

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var (
	ErrNoCustomer = errors.New("shop: no such customer")
	ErrInUse      = errors.New("shop: the customer has orders")
	ErrLast       = errors.New("shop: the last customer stays")
)

type Store struct{ DB *sql.DB }

// PlaceOrder creates an order; a nil customer is a guest order.
func (s *Store) PlaceOrder(customer *int64, total int64) error {
	if customer != nil {
		var one int64
		if err := s.DB.QueryRow("SELECT 1 FROM customers WHERE id = ?", *customer).Scan(&one); err != nil {
			return ErrNoCustomer
		}
	}
	_, err := s.DB.Exec("INSERT INTO orders (customer_id, total) VALUES (?, ?)", customer, total)
	return err
}

// PlaceGuestOrder creates a guest order once some customer exists.
func (s *Store) PlaceGuestOrder(total int64) error {
	var id int64
	if err := s.DB.QueryRow("SELECT id FROM customers LIMIT 1").Scan(&id); err != nil {
		return ErrNoCustomer
	}
	_, err := s.DB.Exec("INSERT INTO orders (customer_id, total) VALUES (NULL, ?)", total)
	return err
}

// DeleteCustomer removes a customer that has no orders.
func (s *Store) DeleteCustomer(id int64) error {
	var one int64
	err := s.DB.QueryRow("SELECT 1 FROM orders WHERE customer_id = ? LIMIT 1", id).Scan(&one)
	if err == nil {
		return ErrInUse
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	_, err = s.DB.Exec("DELETE FROM customers WHERE id = ?", id)
	return err
}

// RetireCustomer removes a customer that has no orders while another
// customer exists.
func (s *Store) RetireCustomer(id int64) error {
	var one int64
	err := s.DB.QueryRow("SELECT 1 FROM orders WHERE customer_id = ? LIMIT 1", id).Scan(&one)
	if err == nil {
		return ErrInUse
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	var other int64
	if err := s.DB.QueryRow("SELECT id FROM customers WHERE id <> ? LIMIT 1", id).Scan(&other); err != nil {
		return ErrLast
	}
	_, err = s.DB.Exec("DELETE FROM customers WHERE id = ?", id)
	return err
}
