// Package batch_consume_unsafe starts pending jobs while the tenant's
// compute quota lasts, in one transaction.
package batch_consume_unsafe

import (
	"context"
	"database/sql"
)

type job struct {
	id, cost int64
}

type Scheduler struct {
	db *sql.DB
}

// StartPending starts every pending job of quotaID that fits in the quota.
func (s *Scheduler) StartPending(ctx context.Context, quotaID int64) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()

	var used, quota int64
	if err := tx.QueryRowContext(ctx, "SELECT used, quota FROM quotas WHERE id = ? FOR UPDATE", quotaID).Scan(&used, &quota); err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, cost FROM jobs WHERE quota_id = ? AND state = 'pending'", quotaID)
	if err != nil {
		return 0, err
	}
	var jobs []job
	for rows.Next() {
		var j job
		if err := rows.Scan(&j.id, &j.cost); err != nil {
			rows.Close()
			return 0, err
		}
		jobs = append(jobs, j)
	}
	rows.Close()

	started := 0
	for _, j := range jobs {
		if j.cost <= 0 || used+j.cost > quota {
			continue
		}
		if _, err := tx.ExecContext(ctx, "UPDATE quotas SET used = used + ? WHERE id = ?", j.cost, quotaID); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE jobs SET state = 'running' WHERE id = ?", j.id); err != nil {
			return 0, err
		}
		started++
	}
	return started, tx.Commit()
}
