// Package pg_oncall_rr_unsafe is the on-call roster of a hospital on PostgreSQL: a
// doctor may go off call only while another doctor of the shift stays on
// call.
//
// Write skew at REPEATABLE READ (sql.TxOptions): Postgres REPEATABLE READ is
// snapshot isolation, whose first-updater rule covers only the same row; the
// two doctors update different rows and both commit, leaving the shift empty
// (G2-item).
package pg_oncall_rr_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var ErrLastOnCall = errors.New("roster: the last doctor on call cannot leave")

// Roster is the on-call roster.
type Roster struct{ db *sql.DB }

func NewRoster(db *sql.DB) *Roster { return &Roster{db: db} }

// GoOffCall takes doctorID off call if another doctor of the shift is on
// call.
func (r *Roster) GoOffCall(ctx context.Context, doctorID int64) error {
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return fmt.Errorf("off call: %w", err)
	}
	defer tx.Rollback()
	var shiftID int64
	if err := tx.QueryRowContext(ctx, "SELECT shift_id FROM doctors WHERE id = $1", doctorID).Scan(&shiftID); err != nil {
		return fmt.Errorf("off call: %w", err)
	}
	var onCall int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM doctors WHERE shift_id = $1 AND on_call = 1", shiftID).Scan(&onCall); err != nil {
		return fmt.Errorf("off call: %w", err)
	}
	if onCall < 2 {
		return ErrLastOnCall
	}
	if _, err := tx.ExecContext(ctx, "UPDATE doctors SET on_call = 0 WHERE id = $1", doctorID); err != nil {
		return fmt.Errorf("off call: %w", err)
	}
	return tx.Commit()
}
