// Package rows_loop_unsafe runs the monthly maintenance-fee job.
package rows_loop_unsafe

import (
	"context"
	"database/sql"
)

const (
	monthlyFee         = 5
	selectPlanAccounts = "SELECT id FROM accounts WHERE plan_id = ? AND balance > 0"
	chargeFee          = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// ChargeMonthlyFee charges the maintenance fee to every funded account of
// the plan and returns how many accounts were charged.
func (s *Store) ChargeMonthlyFee(ctx context.Context, planID int64) (int, error) {
	rows, err := s.db.QueryContext(ctx, selectPlanAccounts, planID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()

	charged := 0
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return charged, err
		}
		if _, err := s.db.ExecContext(ctx, chargeFee, monthlyFee, id); err != nil {
			return charged, err
		}
		charged++
	}
	return charged, rows.Err()
}
