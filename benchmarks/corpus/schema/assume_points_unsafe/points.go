// Package assume_points_unsafe is the points ledger of a loyalty programme
// (MySQL). The service layer computes the points of a purchase and only
// calls the repository with a positive number; the repository trusts it.
package assume_points_unsafe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

const (
	awardSQL = "UPDATE `members` SET `points` = `points` + ?, `lifetime_points` = `lifetime_points` + ? " +
		"WHERE `id` = ? AND `status` = 'active'"
	ledgerSQL = "INSERT INTO `points_ledger` SET `member_id` = ?, `points` = ?, `reason` = ?"
)

// Ledger records points.
type Ledger struct {
	db *sql.DB
}

func NewLedger(db *sql.DB) *Ledger { return &Ledger{db: db} }

// Award credits points to memberID and writes a ledger line.
func (l *Ledger) Award(ctx context.Context, memberID, points int64, reason string) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	if _, err := tx.ExecContext(ctx, awardSQL, points, points, memberID); err != nil {
		return fmt.Errorf("award: %w", err)
	}
	if _, err := tx.ExecContext(ctx, ledgerSQL, memberID, points, reason); err != nil {
		return fmt.Errorf("award: ledger: %w", err)
	}
	return tx.Commit()
}
