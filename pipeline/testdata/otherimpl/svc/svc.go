// Package svc debits accounts through a Ledger. Its own implementation,
// *Guarded, keeps the balance at or above 0; the one the server wires in
// (store.Loose, in a package svc does not import) does not. Checking
// ./svc alone, the analysis must not assume *Guarded is the only Ledger.
package svc

import (
	"context"
	"database/sql"
)

type Ledger interface {
	Debit(ctx context.Context, id, amt int64) error
}

type Guarded struct{ DB *sql.DB }

func (g *Guarded) Debit(ctx context.Context, id, amt int64) error {
	_, err := g.DB.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", amt, id, amt)
	return err
}

type Service struct {
	Ledger Ledger
	DB     *sql.DB
}

// Debit calls through the field: the server's store.Loose runs.
func (s *Service) Debit(ctx context.Context, id, amt int64) error {
	return s.Ledger.Debit(ctx, id, amt)
}

// DebitOther calls through the field where it is not a *Guarded: a
// store.Loose there.
func (s *Service) DebitOther(ctx context.Context, id, amt int64) error {
	if _, ok := s.Ledger.(*Guarded); ok {
		return nil
	}
	return s.Ledger.Debit(ctx, id, amt)
}

// DebitSwitch writes without a guard for a Ledger that is not a
// *Guarded and not nil: a store.Loose.
func (s *Service) DebitSwitch(ctx context.Context, id, amt int64) error {
	switch s.Ledger.(type) {
	case *Guarded, nil:
		return nil
	default:
		_, err := s.DB.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
		return err
	}
}
