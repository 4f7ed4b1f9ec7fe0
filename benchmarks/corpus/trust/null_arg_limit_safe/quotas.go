// Package null_arg_limit_safe sets a user's API quota. A limit of 0 means
// unlimited and is stored as NULL; a positive limit is checked against the
// usage first. The NULL-ness of the argument (sql.NullInt64's Valid) is
// what makes the unchecked write harmless.
package null_arg_limit_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// ErrBelowUsage is returned for a limit below what the user already used.
var ErrBelowUsage = errors.New("quotas: limit below usage")

// Quotas is the quota store.
type Quotas struct{ DB *sql.DB }

// SetLimit sets email's limit (0: unlimited).
func (q *Quotas) SetLimit(ctx context.Context, email string, limit int64) error {
	if limit > 0 {
		var used int64
		if err := q.DB.QueryRowContext(ctx, `SELECT used FROM quotas WHERE user_email = $1`, email).Scan(&used); err != nil {
			return err
		}
		if used > limit {
			return ErrBelowUsage
		}
	}
	_, err := q.DB.ExecContext(ctx, `UPDATE quotas SET quota_limit = $2 WHERE user_email = $1`,
		email, sql.NullInt64{Int64: limit, Valid: limit > 0})
	return err
}
