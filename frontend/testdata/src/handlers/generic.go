package handlers

import (
	"context"
	"database/sql"
)

// Ledger is a generic repository: its methods are generic functions that
// nothing in this package instantiates.
type Ledger[T any] struct{ db *sql.DB }

// NewLedger returns a ledger of T.
func NewLedger[T any](db *sql.DB) *Ledger[T] { return &Ledger[T]{db: db} }

// Charge debits an account.
func (l *Ledger[T]) Charge(ctx context.Context, id, amt int64) error {
	_, err := l.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}
