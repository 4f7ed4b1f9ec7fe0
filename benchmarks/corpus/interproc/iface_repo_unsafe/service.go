// Package billing charges customers through a repository interface
// (Postgres behind it).
package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

// ErrDeclined is returned when a charge cannot be paid.
var ErrDeclined = errors.New("charge declined")

// Credits is the storage the billing service needs.
type Credits interface {
	Balance(ctx context.Context, customerID int64) (int64, error)
	Spend(ctx context.Context, customerID, amount int64) (bool, error)
}

// Service charges customers.
type Service struct {
	credits   Credits
	maxCharge int64
}

// NewService wires the service to Postgres.
func NewService(db *sql.DB) *Service {
	return &Service{credits: &pgCredits{db: db}, maxCharge: 10000}
}

// Charge spends amount of the customer's credits.
func (s *Service) Charge(ctx context.Context, customerID, amount int64) error {
	if amount <= 0 || amount > s.maxCharge {
		return fmt.Errorf("invalid amount %d", amount)
	}
	ok, err := s.credits.Spend(ctx, customerID, amount)
	if err != nil {
		return fmt.Errorf("charge %d: %w", customerID, err)
	}
	if !ok {
		return ErrDeclined
	}
	return nil
}

type pgCredits struct {
	db *sql.DB
}

func (c *pgCredits) Balance(ctx context.Context, customerID int64) (int64, error) {
	var b int64
	err := c.db.QueryRowContext(ctx, "SELECT credits FROM customers WHERE id = $1", customerID).Scan(&b)
	return b, err
}

// Spend takes amount credits.
func (c *pgCredits) Spend(ctx context.Context, customerID, amount int64) (bool, error) {
	res, err := c.db.ExecContext(ctx, "UPDATE customers SET credits = credits - $1 WHERE id = $2", amount, customerID) // bug: no guard: the balance check happens in Charge, which was removed
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// fakeCredits is an in-memory implementation for local runs.
type fakeCredits struct {
	balances map[int64]int64
}

func (f *fakeCredits) Balance(_ context.Context, id int64) (int64, error) { return f.balances[id], nil }

func (f *fakeCredits) Spend(_ context.Context, id, amount int64) (bool, error) {
	if f.balances[id] < amount {
		return false, nil
	}
	f.balances[id] -= amount
	return true, nil
}
