// Package pgconnw runs SQL through pgx's low-level connection (pgconn).
package pgconnw

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Deposit credits through the pool (a writer the tool reads).
func Deposit(ctx context.Context, pool *pgxpool.Pool, id, amt int64) error {
	if amt <= 0 {
		return fmt.Errorf("bad amount")
	}
	_, err := pool.Exec(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, amt, id)
	return err
}

// ApplyFee charges a fee with the simple protocol through pgconn.
func ApplyFee(ctx context.Context, pool *pgxpool.Pool) error {
	c, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	_, err = c.Conn().PgConn().Exec(ctx, `UPDATE wallets SET balance = balance - 5 WHERE id = 1`).ReadAll()
	return err
}

// ApplyFeeParams charges fee through pgconn's extended protocol.
func ApplyFeeParams(ctx context.Context, pool *pgxpool.Pool, id, fee int64) error {
	c, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	res := c.Conn().PgConn().ExecParams(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`,
		[][]byte{[]byte(strconv.FormatInt(fee, 10)), []byte(strconv.FormatInt(id, 10))}, nil, nil, nil).Read()
	return res.Err
}

// ServerPID reads the backend's process id: no SQL.
func ServerPID(ctx context.Context, pool *pgxpool.Pool) (uint32, error) {
	c, err := pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Release()
	return c.Conn().PgConn().PID(), nil
}
