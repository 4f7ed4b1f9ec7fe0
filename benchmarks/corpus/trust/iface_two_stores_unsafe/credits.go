// Package iface_two_stores_unsafe spends store credit through two
// interface values: the check reads the nightly snapshot through one
// (cache), the debit takes from the live amount through the other (repo):
// the check reads a snapshot, not the amount it debits.
package iface_two_stores_unsafe

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

// Snapshots reads the nightly snapshot of a customer's credit.
type Snapshots interface {
	Snapshot(ctx context.Context, customer int64) (int64, error)
}

// snapshotRepo reads the nightly snapshot of the credits (a column
// beside the live amount).
type snapshotRepo struct{ db *sql.DB }

func (r *snapshotRepo) Snapshot(ctx context.Context, customer int64) (int64, error) {
	var amount int64
	err := r.db.QueryRowContext(ctx, `SELECT snapshot_amount FROM credits WHERE customer_id = $1`, customer).Scan(&amount)
	return amount, err
}

// ErrNoCredit is returned when the credit does not cover a purchase.
var ErrNoCredit = errors.New("credits: not enough credit")

// Shop spends credit.
type Shop struct {
	cache Snapshots
	repo  Repo
}

// NewShop returns a shop over db.
func NewShop(db *sql.DB) *Shop {
	return &Shop{cache: &snapshotRepo{db: db}, repo: &pgRepo{db: db}}
}

// Spend takes amount of customer's credit.
func (s *Shop) Spend(ctx context.Context, customer, amount int64) error {
	if amount <= 0 {
		return errors.New("credits: bad amount")
	}
	have, err := s.cache.Snapshot(ctx, customer)
	if err != nil {
		return err
	}
	if have < amount {
		return ErrNoCredit
	}
	return s.repo.Debit(ctx, customer, amount)
}
