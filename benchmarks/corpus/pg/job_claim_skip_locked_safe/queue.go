// Package queue is a PostgreSQL job queue: a worker claims the next
// runnable job with the canonical FOR UPDATE SKIP LOCKED query and
// counts the attempt. Only jobs below their maximum of attempts are
// runnable, so a claim never takes a job over it.
package queue

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrEmpty is returned when no job is runnable.
var ErrEmpty = errors.New("queue: no runnable job")

// Queue hands out jobs.
type Queue struct{ db *sql.DB }

func New(db *sql.DB) *Queue { return &Queue{db: db} }

// Claim takes the next runnable job, skipping jobs other workers hold.
func (q *Queue) Claim(ctx context.Context) (int64, error) {
	tx, err := q.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, `
		SELECT id FROM jobs
		WHERE status = 'pending' AND attempts < max_attempts
		ORDER BY id
		FOR UPDATE SKIP LOCKED
		LIMIT 1`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrEmpty
	}
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx,
		`UPDATE jobs SET status = 'running', attempts = attempts + 1 WHERE id = $1`, id); err != nil {
		return 0, err
	}
	return id, tx.Commit()
}
