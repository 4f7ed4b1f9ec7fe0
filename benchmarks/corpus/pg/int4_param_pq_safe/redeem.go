// Package int4_param_pq_safe is int4_param_safe on lib/pq: the driver
// sends n as text, and PostgreSQL, which types the parameter int4 (from
// points), refuses a value above MaxInt32 (22003, out of range for type
// integer): the statement whose funds check binds a wrapped int32(n)
// fails on the server.
package int4_param_pq_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// Redeem takes n points from member's balance when it has them.
func Redeem(ctx context.Context, db *sql.DB, member int32, n int64) error {
	if n <= 0 {
		return errors.New("bad points")
	}
	_, err := db.ExecContext(ctx,
		`UPDATE loyalty SET points = points - $1 WHERE member_id = $2 AND points >= $3`, n, member, int32(n))
	return err
}
