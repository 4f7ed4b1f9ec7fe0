// Package counter takes download tokens: TakeRMW reads the count,
// checks the cap in Go and writes the new count back, which loses a
// concurrent request's increment at READ COMMITTED.
package counter

import (
	"context"
	"database/sql"
	"errors"
)

// ErrCap rejects a download beyond the file's cap.
var ErrCap = errors.New("download cap reached")

// TakeRMW reads the count, checks the cap and writes count + 1.
func TakeRMW(ctx context.Context, db *sql.DB, file int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n, max int64
	if err := tx.QueryRowContext(ctx, `SELECT n, max_n FROM downloads WHERE file_id = $1`, file).Scan(&n, &max); err != nil {
		return err
	}
	if n >= max {
		return ErrCap
	}
	if _, err := tx.ExecContext(ctx, `UPDATE downloads SET n = $1 WHERE file_id = $2`, n+1, file); err != nil {
		return err
	}
	return tx.Commit()
}
