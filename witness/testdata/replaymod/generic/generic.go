// Package generic is a repository generic in the record type it decodes;
// its Debit does not check the balance.
package generic

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Repo is a repository of records of type T.
type Repo[T any] struct {
	db *sql.DB
}

// NewRepo returns a repository over db.
func NewRepo[T any](db *sql.DB) *Repo[T] { return &Repo[T]{db: db} }

// Debit takes amount from the wallet.
func (r *Repo[T]) Debit(ctx context.Context, id, amount int64) error {
	_, err := r.db.ExecContext(ctx, `UPDATE wallets SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}
