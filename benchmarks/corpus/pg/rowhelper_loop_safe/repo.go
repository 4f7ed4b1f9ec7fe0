// Package rowhelper_loop_safe: the helpers of rowhelper_tx_safe called in a
// loop.
package rowhelper_loop_safe

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

// WithdrawEach debits amt from each wallet of ids whose balance covers
// it, stopping at the first that does not.
func (r *Repo) WithdrawEach(ctx context.Context, ids []int64, amt int64) error {
	if amt <= 0 {
		return errors.New("bad amount")
	}
	for _, id := range ids {
		var b int64
		if err := r.row(ctx, `SELECT balance FROM wallets WHERE id = $1`, id).Scan(&b); err != nil {
			return err
		}
		if b < amt {
			return ErrInsufficient
		}
		if err := r.exec(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amt, id); err != nil {
			return err
		}
	}
	return nil
}
