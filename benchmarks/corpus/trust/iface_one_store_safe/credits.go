// Package iface_one_store_safe spends store credit through a repository
// interface with two implementations: the PostgreSQL one, and an
// in-memory double the callers' unit tests use. Balance and Debit are
// called on the same field: in one run both go to the same implementation.
package iface_one_store_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// Repo is the credit repository.
type Repo interface {
	Balance(ctx context.Context, customer int64) (int64, error)
	Debit(ctx context.Context, customer, amount int64) error
}

type pgRepo struct{ db *sql.DB }

func (r *pgRepo) Balance(ctx context.Context, customer int64) (int64, error) {
	var amount int64
	err := r.db.QueryRowContext(ctx, `SELECT amount FROM credits WHERE customer_id = $1`, customer).Scan(&amount)
	return amount, err
}

func (r *pgRepo) Debit(ctx context.Context, customer, amount int64) error {
	_, err := r.db.ExecContext(ctx, `UPDATE credits SET amount = amount - $1 WHERE customer_id = $2`, amount, customer)
	return err
}

// memRepo is the test double.
type memRepo struct{ m map[int64]int64 }

func (r *memRepo) Balance(_ context.Context, customer int64) (int64, error) {
	return r.m[customer], nil
}

func (r *memRepo) Debit(_ context.Context, customer, amount int64) error {
	r.m[customer] -= amount
	return nil
}

// ErrNoCredit is returned when the credit does not cover a purchase.
var ErrNoCredit = errors.New("credits: not enough credit")

// Shop spends credit.
type Shop struct{ repo Repo }

// NewShop returns a shop over db; NewTestShop one over memory.
func NewShop(db *sql.DB) *Shop { return &Shop{repo: &pgRepo{db: db}} }
func NewTestShop() *Shop       { return &Shop{repo: &memRepo{m: map[int64]int64{}}} }

// Spend takes amount of customer's credit.
func (s *Shop) Spend(ctx context.Context, customer, amount int64) error {
	if amount <= 0 {
		return errors.New("credits: bad amount")
	}
	have, err := s.repo.Balance(ctx, customer)
	if err != nil {
		return err
	}
	if have < amount {
		return ErrNoCredit
	}
	return s.repo.Debit(ctx, customer, amount)
}
