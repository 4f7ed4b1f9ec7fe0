// Package assertdyn is sqlc's emit_interface shape: a service keeps the
// Querier interface and asserts it back to *Queries in its transaction
// helper. *Queries is the only type of the program that implements
// Querier, so the assertion holds unless the field is nil (a panic,
// which ends the run): the statements that follow run, and a
// counterexample through them is not "possibly spurious". (Its method
// is AdjustStock, a name no other package of this test module declares:
// checked alone, a type of another package with the same methods could
// be the field's, see otherimpls.go.)
package assertdyn

import (
	"context"
	"database/sql"
	"errors"
)

type Querier interface {
	AdjustStock(ctx context.Context, id, qty int64) error
}

type DBTX interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type Queries struct{ db DBTX }

func (q *Queries) WithTx(tx *sql.Tx) *Queries { return &Queries{db: tx} }

func (q *Queries) AdjustStock(ctx context.Context, id, qty int64) error {
	_, err := q.db.ExecContext(ctx, "UPDATE stocks SET quantity = quantity + ? WHERE id = ?", qty, id)
	return err
}

type Service struct {
	Querier Querier
	db      *sql.DB
}

func (s *Service) execTx(ctx context.Context, fn func(Querier) error) error {
	q := s.Querier.(*Queries)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(q.WithTx(tx)); err != nil {
		return err
	}
	return tx.Commit()
}

// AddStock adds qty (unchecked, a negative qty takes the stock below 0).
func (s *Service) AddStock(ctx context.Context, id, qty int64) error {
	return s.execTx(ctx, func(q Querier) error {
		return q.AdjustStock(ctx, id, qty)
	})
}

// Restock adds a positive qty only.
func (s *Service) Restock(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	return s.execTx(ctx, func(q Querier) error {
		return q.AdjustStock(ctx, id, qty)
	})
}
