// Package zerotx_repo_safe: a service builds a pgx repository on its pool
// (&Repo{pool: pool}, no transaction) and withdraws through it; the
// repository's helpers use its transaction when it has one, else the
// pool (adv18 leftover: a handle field left out of a composite literal).
package zerotx_repo_safe

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

func (r *Repo) balance(ctx context.Context, id int64) (int64, error) {
	var b int64
	if r.tx != nil {
		err := r.tx.QueryRow(ctx, `SELECT balance FROM wallets WHERE id = $1 FOR UPDATE`, id).Scan(&b)
		return b, err
	}
	err := r.pool.QueryRow(ctx, `SELECT balance FROM wallets WHERE id = $1`, id).Scan(&b)
	return b, err
}

func (r *Repo) debit(ctx context.Context, id, amt int64) error {
	if r.tx != nil {
		_, err := r.tx.Exec(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, amt, id)
		return err
	}
	_, err := r.pool.Exec(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, amt, id)
	return err
}

// Service withdraws through a repository on its pool.
type Service struct{ pool *pgxpool.Pool }

// Withdraw debits amt if the balance covers it.
func (s *Service) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("bad amount")
	}
	r := NewRepo(s.pool)
	b, err := r.balance(ctx, id)
	if err != nil {
		return err
	}
	if b < amt {
		return ErrInsufficient
	}
	return r.debit(ctx, id, amt)
}
