// Package assertchoice keeps a Querier that two types of the program
// implement: *Queries checks the quantity in SQL, *Loose does not. A
// method that asserts the field is a *Queries before it calls through the
// field runs *Queries' statement only: the assertion and the interface
// dispatch read the same dynamic type. Where the assertion is comma-ok
// (or a type switch) the other branch runs *Loose.
package assertchoice

import (
	"context"
	"database/sql"
)

type Querier interface {
	AddStock(ctx context.Context, id, qty int64) error
	Floor(ctx context.Context, id int64) (int64, error)
}

type Queries struct{ db *sql.DB }

func (q *Queries) AddStock(ctx context.Context, id, qty int64) error {
	_, err := q.db.ExecContext(ctx, "UPDATE stocks SET quantity = quantity + ? WHERE id = ? AND quantity + ? >= 0", qty, id, qty)
	return err
}

// Floor is the lowest quantity *Queries lets a stock reach: 0.
func (q *Queries) Floor(ctx context.Context, id int64) (int64, error) {
	var n int64
	err := q.db.QueryRowContext(ctx, "SELECT count(*) FROM stocks WHERE id = ?", id).Scan(&n)
	return 0, err
}

type Loose struct{ db *sql.DB }

// Floor is the lowest quantity *Loose lets a stock reach: -100.
func (l *Loose) Floor(ctx context.Context, id int64) (int64, error) {
	var n int64
	err := l.db.QueryRowContext(ctx, "SELECT count(*) FROM stocks WHERE id = ?", id).Scan(&n)
	return -100, err
}

func (l *Loose) AddStock(ctx context.Context, id, qty int64) error {
	_, err := l.db.ExecContext(ctx, "UPDATE stocks SET quantity = quantity + ? WHERE id = ?", qty, id)
	return err
}

type Service struct {
	Querier Querier
	db      *sql.DB
}

// Checked asserts the checking implementation, then calls through the
// field: only *Queries' guarded UPDATE runs.
func (s *Service) Checked(ctx context.Context, id, qty int64) error {
	_ = s.Querier.(*Queries)
	return s.Querier.AddStock(ctx, id, qty)
}

// Unchecked asserts the loose one: its UPDATE takes the stock below 0.
func (s *Service) Unchecked(ctx context.Context, id, qty int64) error {
	_ = s.Querier.(*Loose)
	return s.Querier.AddStock(ctx, id, qty)
}

// CheckedOk calls through the field only when it holds a *Queries.
func (s *Service) CheckedOk(ctx context.Context, id, qty int64) error {
	if _, ok := s.Querier.(*Queries); !ok {
		return nil
	}
	return s.Querier.AddStock(ctx, id, qty)
}

// UncheckedOk calls through the field when it does not hold a *Queries.
func (s *Service) UncheckedOk(ctx context.Context, id, qty int64) error {
	if _, ok := s.Querier.(*Queries); ok {
		return nil
	}
	return s.Querier.AddStock(ctx, id, qty)
}

// Switch calls through the field only in the *Queries case.
func (s *Service) Switch(ctx context.Context, id, qty int64) error {
	switch s.Querier.(type) {
	case *Queries:
		return s.Querier.AddStock(ctx, id, qty)
	case *Loose:
		return nil
	}
	return nil
}

// FloorChecked asks the field for its floor, then asserts it is a
// *Queries: the floor was *Queries' 0, so the guarded UPDATE keeps the
// quantity at or above 0.
func (s *Service) FloorChecked(ctx context.Context, id, qty int64) error {
	floor, err := s.Querier.Floor(ctx, id)
	if err != nil {
		return err
	}
	_ = s.Querier.(*Queries)
	_, err = s.db.ExecContext(ctx, "UPDATE stocks SET quantity = quantity + ? WHERE id = ? AND quantity + ? >= ?", qty, id, qty, floor)
	return err
}

// FloorLoose asserts a *Loose after asking for the floor: -100.
func (s *Service) FloorLoose(ctx context.Context, id, qty int64) error {
	floor, err := s.Querier.Floor(ctx, id)
	if err != nil {
		return err
	}
	_ = s.Querier.(*Loose)
	_, err = s.db.ExecContext(ctx, "UPDATE stocks SET quantity = quantity + ? WHERE id = ? AND quantity + ? >= ?", qty, id, qty, floor)
	return err
}
