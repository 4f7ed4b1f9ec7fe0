// Package fees credits accounts through a pgxpool and charges fees
// through pgx's wire-protocol connection (pgconn).
package fees

import (
	"context"
	"errors"
	"strconv"

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

// ChargeFee debits fee through pgconn's extended protocol, without
// checking the balance.
func (s *Service) ChargeFee(ctx context.Context, id, fee int64) error {
	if fee <= 0 {
		return ErrBadAmount
	}
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	res := c.Conn().PgConn().ExecParams(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`,
		[][]byte{[]byte(strconv.FormatInt(fee, 10)), []byte(strconv.FormatInt(id, 10))}, nil, nil, nil).Read()
	return res.Err
}
