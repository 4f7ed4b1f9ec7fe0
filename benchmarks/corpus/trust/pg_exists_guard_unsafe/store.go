// Package pg_exists_guard_unsafe deletes a customer after SELECT EXISTS of its orders, but a purge skips the check.
package pg_exists_guard_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrInUse is returned for a customer that still has orders.
var ErrInUse = errors.New("customer has orders")

// ErrNoCustomer is returned for an order of an unknown customer.
var ErrNoCustomer = errors.New("no such customer")

// Store keeps customers and their orders.
type Store struct{ DB *sql.DB }

// DeleteCustomer removes a customer that has no orders; purge skips the check (bug: its orders are left behind).
func (s *Store) DeleteCustomer(ctx context.Context, id int64, purge bool) error {
	var used bool
	err := s.DB.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id = $1)", id).Scan(&used)
	if err != nil {
		return err
	}
	if !purge && used {
		return ErrInUse
	}
	_, err = s.DB.ExecContext(ctx, "DELETE FROM customers WHERE id = $1", id)
	return err
}

// PlaceOrder creates an order for an existing customer.
func (s *Store) PlaceOrder(ctx context.Context, customer, total int64) error {
	var one int64
	err := s.DB.QueryRowContext(ctx, "SELECT 1 FROM customers WHERE id = $1", customer).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoCustomer
	}
	if err != nil {
		return err
	}
	_, err = s.DB.ExecContext(ctx, "INSERT INTO orders (customer_id, total) VALUES ($1, $2)", customer, total)
	return err
}
