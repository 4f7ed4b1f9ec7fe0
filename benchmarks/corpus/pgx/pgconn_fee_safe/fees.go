// Package fees credits accounts through a pgxpool and charges fees on an
// acquired connection, whose backend it reads through pgx's
// wire-protocol connection (pgconn) without running SQL there.
package fees

import (
	"context"
	"errors"
	"log"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrBadAmount is returned for an amount that is not positive.
var ErrBadAmount = errors.New("amount must be positive")

// Service holds the pool.
type Service struct {
	pool *pgxpool.Pool
}

// Deposit credits amt to account id.
func (s *Service) Deposit(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrBadAmount
	}
	_, err := s.pool.Exec(ctx, `UPDATE accounts SET balance = balance + $1 WHERE id = $2`, amt, id)
	return err
}

// ChargeFee debits fee where the balance covers it.
func (s *Service) ChargeFee(ctx context.Context, id, fee int64) error {
	if fee <= 0 {
		return ErrBadAmount
	}
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	log.Printf("charging on backend %d", c.Conn().PgConn().PID())
	_, err = c.Exec(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, fee, id)
	return err
}
