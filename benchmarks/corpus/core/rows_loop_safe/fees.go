// Package rows_loop_safe runs the monthly maintenance-fee job.
package rows_loop_safe

import (
	"context"
	"database/sql"
)

const (
	monthlyFee         = 5
	selectPlanAccounts = "SELECT id, balance FROM accounts WHERE plan_id = ?"
	chargeFee          = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// ChargeMonthlyFee charges the maintenance fee to every account of the plan
// that can pay it and returns how many accounts were charged.
func (s *Store) ChargeMonthlyFee(ctx context.Context, planID int64) (int, error) {
	rows, err := s.db.QueryContext(ctx, selectPlanAccounts, planID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()

	charged := 0
	for rows.Next() {
		var id, bal int64
		if err := rows.Scan(&id, &bal); err != nil {
			return charged, err
		}
		if bal < monthlyFee {
			continue // waived: the account cannot pay this month
		}
		if _, err := s.db.ExecContext(ctx, chargeFee, monthlyFee, id); err != nil {
			return charged, err
		}
		charged++
	}
	return charged, rows.Err()
}
