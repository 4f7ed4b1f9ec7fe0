// Package int4_param_safe redeems points kept in an INTEGER (int4)
// column. The funds check binds int32(n), the subtraction n itself:
// for n above MaxInt32, int32(n) wraps and the check passes, but
// PostgreSQL types both parameters int4 (from points), and pgx refuses
// to encode n into it, so the statement fails before it runs.
package int4_param_safe

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Redeem takes n points from member's balance when it has them.
func Redeem(ctx context.Context, pool *pgxpool.Pool, member int32, n int64) error {
	if n <= 0 {
		return errors.New("bad points")
	}
	_, err := pool.Exec(ctx,
		`UPDATE loyalty SET points = points - $1 WHERE member_id = $2 AND points >= $3`, n, member, int32(n))
	return err
}
