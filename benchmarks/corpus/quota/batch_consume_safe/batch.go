// Package batch_consume_safe starts pending jobs while the tenant's compute
// quota lasts.
package batch_consume_safe

import (
	"context"
	"database/sql"
)

const (
	pendingJobsSQL = "SELECT id, cost FROM jobs WHERE quota_id = ? AND state = 'pending' ORDER BY id"
	chargeSQL      = "UPDATE quotas SET used = used + ? WHERE id = ? AND used + ? <= quota"
	startJobSQL    = "UPDATE jobs SET state = 'running' WHERE id = ?"
)

// StartPending charges each pending job of quotaID in turn and marks it
// running; it stops at the first job that does not fit.
func StartPending(ctx context.Context, db *sql.DB, quotaID int64) (int, error) {
	rows, err := db.QueryContext(ctx, pendingJobsSQL, quotaID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()

	started := 0
	for rows.Next() {
		var jobID, cost int64
		if err := rows.Scan(&jobID, &cost); err != nil {
			return started, err
		}
		res, err := db.ExecContext(ctx, chargeSQL, cost, quotaID, cost)
		if err != nil {
			return started, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return started, err
		}
		if n == 0 {
			break // quota exhausted
		}
		if _, err := db.ExecContext(ctx, startJobSQL, jobID); err != nil {
			return started, err
		}
		started++
	}
	return started, rows.Err()
}
