// Package wallets: a pgx repository sends its statements through helpers
// that use the repository's transaction when it has one, else the pool.
// WithTx returns a copy bound to a transaction the caller began.
// Withdraw debits first and reads the balance back in the transaction,
// rolling back when it went below 0. BUG: the read goes through r, not
// the copy bound to the transaction: the pool does not see the debit.
package wallets

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var ErrInsufficient = errors.New("insufficient funds")

type Repo struct {
	pool *pgxpool.Pool
	tx   pgx.Tx
}

func NewRepo(pool *pgxpool.Pool) *Repo { return &Repo{pool: pool} }

// WithTx returns a repository that runs on tx.
func (r *Repo) WithTx(tx pgx.Tx) *Repo { return &Repo{pool: r.pool, tx: tx} }

func (r *Repo) row(ctx context.Context, sql string, args ...any) pgx.Row {
	if r.tx != nil {
		return r.tx.QueryRow(ctx, sql, args...)
	}
	return r.pool.QueryRow(ctx, sql, args...)
}

func (r *Repo) exec(ctx context.Context, sql string, args ...any) error {
	if r.tx != nil {
		_, err := r.tx.Exec(ctx, sql, args...)
		return err
	}
	_, err := r.pool.Exec(ctx, sql, args...)
	return err
}

// Withdraw debits amt, then reads the balance in the same transaction
// and rolls back if it is negative.
func (r *Repo) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("bad amount")
	}
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	q := r.WithTx(tx)
	if err := q.exec(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amt, id); err != nil {
		return err
	}
	var b int64
	if err := r.row(ctx, `SELECT balance FROM wallets WHERE id = $1`, id).Scan(&b); err != nil {
		return err
	}
	if b < 0 {
		return ErrInsufficient
	}
	return tx.Commit(ctx)
}
