// Package int4_param_unsafe is int4_param_safe with points in a BIGINT
// column: PostgreSQL types the parameters int8, pgx encodes n, and for
// n = 2^31 the funds check compares points with int32(n) = -2^31 while
// the subtraction takes 2^31.
package int4_param_unsafe

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Redeem takes n points from member's balance when it has them (but
// checks a wrapped int32(n)).
func Redeem(ctx context.Context, pool *pgxpool.Pool, member int32, n int64) error {
	if n <= 0 {
		return errors.New("bad points")
	}
	_, err := pool.Exec(ctx,
		`UPDATE loyalty SET points = points - $1 WHERE member_id = $2 AND points >= $3`, n, member, int32(n))
	return err
}
