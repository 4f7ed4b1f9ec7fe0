// Package mysql_oncall_serializable_safe is the on-call roster of a hospital on MySQL: a
// doctor may go off call only while another doctor of the shift stays on
// call.
//
// The on-call roster on MySQL at SERIALIZABLE (sql.TxOptions): InnoDB turns
// the count into a shared-lock read of the shift's rows, so each UPDATE
// waits for the other's shared lock; InnoDB rolls one back as a deadlock.
package mysql_oncall_serializable_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var ErrLastOnCall = errors.New("roster: the last doctor on call cannot leave")

// Roster is the on-call roster.
type Roster struct{ db *sql.DB }

func NewRoster(db *sql.DB) *Roster { return &Roster{db: db} }

// GoOffCall takes doctorID off call if another doctor of the shift is on
// call.
func (r *Roster) GoOffCall(ctx context.Context, doctorID int64) error {
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return fmt.Errorf("off call: %w", err)
	}
	defer tx.Rollback()
	var shiftID int64
	if err := tx.QueryRowContext(ctx, "SELECT shift_id FROM doctors WHERE id = ?", doctorID).Scan(&shiftID); err != nil {
		return fmt.Errorf("off call: %w", err)
	}
	var onCall int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM doctors WHERE shift_id = ? AND on_call = 1", shiftID).Scan(&onCall); err != nil {
		return fmt.Errorf("off call: %w", err)
	}
	if onCall < 2 {
		return ErrLastOnCall
	}
	if _, err := tx.ExecContext(ctx, "UPDATE doctors SET on_call = 0 WHERE id = ?", doctorID); err != nil {
		return fmt.Errorf("off call: %w", err)
	}
	return tx.Commit()
}
