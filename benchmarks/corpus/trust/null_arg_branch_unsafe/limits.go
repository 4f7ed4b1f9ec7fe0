// Package null_arg_branch_unsafe sets a spending cap, where NULL means
// unlimited (adversary adv14 p19 SetCap). The sql.NullInt64 argument is
// built on a branch (valid only for a positive cap); the UPDATE checks
// that the cap is positive, or NULL, but not that it covers what was
// already spent: a cap of 1 on an account that spent 5 breaks it.
package null_arg_branch_unsafe

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
	_, err := l.DB.ExecContext(ctx, `UPDATE limits SET cap = $1 WHERE id = $2 AND ($1 > 0 OR $1 IS NULL)`, c, id)
	return err
}
