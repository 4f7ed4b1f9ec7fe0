// Package pg_oncall_rc_unsafe is the on-call roster of a hospital on PostgreSQL: a
// doctor may go off call only while another doctor of the shift stays on
// call.
//
// Write skew over two rows at READ COMMITTED (the classic on-call example):
// doctors 1 and 2 of a shift both go off call; each counts 2 doctors on call
// before the other commits and updates only its own row, so no lock
// conflicts and the shift is left with nobody on call.
package pg_oncall_rc_unsafe

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
	tx, err := r.db.BeginTx(ctx, nil)
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
