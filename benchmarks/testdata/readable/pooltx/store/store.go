// Package store is a sqlc-style repository: a Queries on a pool or, via
// WithTx, on a transaction.
package store

import (
	"context"
	"database/sql"
)

// DBTX is what a Queries runs on.
type DBTX interface {
	ExecContext(context.Context, string, ...interface{}) (sql.Result, error)
	QueryRowContext(context.Context, string, ...interface{}) *sql.Row
}

// Queries runs the statements.
type Queries struct{ db DBTX }

// New returns the queries on db.
func New(db DBTX) *Queries { return &Queries{db: db} }

// WithTx returns the queries on tx.
func (q *Queries) WithTx(tx *sql.Tx) *Queries { return &Queries{db: tx} }

const consume = `UPDATE credits SET available = available - $2 WHERE customer_id = $1`

// Consume debits amount.
func (q *Queries) Consume(ctx context.Context, customer, amount int64) error {
	_, err := q.db.ExecContext(ctx, consume, customer, amount)
	return err
}

const available = `SELECT available FROM credits WHERE customer_id = $1`

// Available reads the balance.
func (q *Queries) Available(ctx context.Context, customer int64) (int64, error) {
	row := q.db.QueryRowContext(ctx, available, customer)
	var n int64
	err := row.Scan(&n)
	return n, err
}
