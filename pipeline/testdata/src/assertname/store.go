// Package assertname is sqlc's emit_interface shape with the querier kept
// as an any: a service asserts it back to *Queries to run a statement.
// Any type may be the dynamic type of an any, so the model does not
// decide the assertion, and the UNKNOWN says so naming the field as the
// source reads it (s.Querier), not an SSA register.
package assertname

import (
	"context"
	"database/sql"
)

type Querier interface {
	AddStock(ctx context.Context, id, qty int64) error
}

type DBTX interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type Queries struct{ db DBTX }

func (q *Queries) WithTx(tx *sql.Tx) *Queries { return &Queries{db: tx} }

func (q *Queries) AddStock(ctx context.Context, id, qty int64) error {
	_, err := q.db.ExecContext(ctx, "UPDATE stocks SET quantity = quantity + ? WHERE id = ?", qty, id)
	return err
}

type Service struct {
	Querier any
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
		return q.AddStock(ctx, id, qty)
	})
}
