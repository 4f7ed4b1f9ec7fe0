// Package decorated debits a wallet through a store decorated with an
// audit row: the debit breaks the constraint inside the decorated call,
// whose if the path never decides.
package decorated

import (
	"context"
	"database/sql"
	"errors"
)

type store struct{ db *sql.DB }

func (s *store) Debit(ctx context.Context, id, amt int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amt, id)
	return err
}

type audited struct {
	inner *store
	db    *sql.DB
}

func (a *audited) Debit(ctx context.Context, id, amt int64) error {
	if err := a.inner.Debit(ctx, id, amt); err != nil {
		return err
	}
	_, err := a.db.ExecContext(ctx, `INSERT INTO audit (wallet_id, delta) VALUES ($1, $2)`, id, -amt)
	return err
}

// Debit takes amt from the wallet without checking its balance.
func Debit(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	a := &audited{inner: &store{db: db}, db: db}
	err := a.Debit(ctx, id, amt)
	return err
}
