// Package null_arg_branch_safe sets a spending cap, where NULL means
// unlimited (adversary adv14 p19 SetCap). The sql.NullInt64 argument is
// built on a branch (valid only for a positive cap), and the UPDATE
// writes it only where it still covers what was spent, or where it is
// NULL: `$1 IS NULL` on the parameter.
package null_arg_branch_safe

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Limits is the spending-limit store.
type Limits struct{ DB *sql.DB }

// SetCap sets account id's cap; 0 from the admin UI means unlimited.
func (l *Limits) SetCap(ctx context.Context, id, newCap int64) error {
	var c sql.NullInt64
	if newCap > 0 {
		c = sql.NullInt64{Int64: newCap, Valid: true}
	}
	_, err := l.DB.ExecContext(ctx, `UPDATE limits SET cap = $1 WHERE id = $2 AND (spent <= $1 OR $1 IS NULL)`, c, id)
	return err
}
