// Package skiplocked claims jobs of a queue with FOR UPDATE SKIP LOCKED
// (pipeline's TestSkipLockedSequential; adv16 jobq.Claim).
package skiplocked

import (
	"context"
	"database/sql"
	"errors"
)

var ErrEmpty = errors.New("queue empty")

// claim takes the first runnable job of tx's view: the query of Claim.
const claim = `SELECT id FROM jobs
	WHERE status = 'pending' AND attempts < max_attempts
	ORDER BY id
	FOR UPDATE SKIP LOCKED
	LIMIT 1`

// Claim takes the next runnable job: SAFE, the job read has attempts
// below its maximum.
func Claim(ctx context.Context, db *sql.DB) (int64, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, claim).Scan(&id); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET status = 'running', attempts = attempts + 1 WHERE id = $1`, id); err != nil {
		return 0, err
	}
	return id, tx.Commit()
}

// ClaimAny takes the first pending job whatever its attempts: UNSAFE, a
// job at its maximum goes over it.
func ClaimAny(ctx context.Context, db *sql.DB) (int64, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM jobs WHERE status = 'pending' ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1`).Scan(&id); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET status = 'running', attempts = attempts + 1 WHERE id = $1`, id); err != nil {
		return 0, err
	}
	return id, tx.Commit()
}

// ClaimSecond holds the first runnable job in one transaction and
// claims with SKIP LOCKED in another, which skips the held job and
// reads a later one, taken without its attempts checked: UNKNOWN (the
// rows SKIP LOCKED leaves out are not modelled; taking the read as the
// first row of the order would make both reads one job, a wrong SAFE).
func ClaimSecond(ctx context.Context, db *sql.DB) error {
	hold, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer hold.Rollback()
	var held int64
	if err := hold.QueryRowContext(ctx, `SELECT id FROM jobs WHERE status = 'pending' ORDER BY id FOR UPDATE LIMIT 1`).Scan(&held); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM jobs WHERE status = 'pending' ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1`).Scan(&id); err != nil {
		return err
	}
	if id == held {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET attempts = attempts + 1 WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit()
}

// Retry holds a job below its maximum in one transaction and looks it
// up again with SKIP LOCKED in another, which skips it: no row, so the
// job is counted twice through the transaction that holds it, one over
// its maximum when one attempt was left. UNKNOWN: reading the held row
// where the engine skips it, the model never took the "no row" path, a
// wrong SAFE.
func Retry(ctx context.Context, db *sql.DB, id int64) error {
	hold, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer hold.Rollback()
	var attempts, limit int64
	if err := hold.QueryRowContext(ctx, `SELECT attempts, max_attempts FROM jobs WHERE id = $1 FOR UPDATE`, id).Scan(&attempts, &limit); err != nil {
		return err
	}
	if attempts >= limit {
		return ErrEmpty
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var got int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM jobs WHERE id = $1 FOR UPDATE SKIP LOCKED`, id).Scan(&got)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if _, err := hold.ExecContext(ctx, `UPDATE jobs SET attempts = attempts + 2 WHERE id = $1`, id); err != nil {
		return err
	}
	return hold.Commit()
}
