// Package ledger records payouts with sqlx named queries (Postgres).
package ledger

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"
)

// Payout is one payment to a merchant, in cents.
type Payout struct {
	MerchantID int64  `db:"merchant_id"`
	Cents      int64  `db:"amount_cents"`
	FeeCents   int64  `db:"fee_cents"`
	Reference  string `db:"reference"`
}

// Store writes payouts.
type Store struct {
	db *sqlx.DB
}

const insertPayout = `
INSERT INTO payouts (merchant_id, amount_cents, fee_cents, reference)
VALUES (:merchant_id, :amount_cents, :fee_cents, :reference)`

// Record stores a payout after checking that the fee leaves a positive net amount.
func (s *Store) Record(ctx context.Context, p Payout) error {
	if p.FeeCents < 0 || p.Cents <= p.FeeCents {
		return fmt.Errorf("payout %s: fee %d exceeds amount %d", p.Reference, p.FeeCents, p.Cents)
	}
	if _, err := s.db.NamedExecContext(ctx, insertPayout, p); err != nil {
		return fmt.Errorf("record payout %s: %w", p.Reference, err)
	}
	return nil
}

// RecordBatch stores several payouts in one transaction through a prepared named statement.
func (s *Store) RecordBatch(ctx context.Context, ps []Payout) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareNamedContext(ctx, insertPayout)
	if err != nil {
		return err
	}
	for i := range ps {
		p := &ps[i]
		if p.FeeCents < 0 || p.Cents <= p.FeeCents {
			return fmt.Errorf("payout %s: fee exceeds amount", p.Reference)
		}
		if _, err := stmt.ExecContext(ctx, p); err != nil {
			return err
		}
	}
	return tx.Commit()
}
