// Package interest_unsafe runs the monthly interest job. Rates may be
// negative to implement negative interest on deposits.
package interest_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrRateTooHigh = errors.New("interest: rate above the regulatory cap")

const (
	maxRatePct    = 100
	applyInterest = "UPDATE accounts SET balance = balance + balance * ? / 100 WHERE balance > 0"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// ApplyRate applies ratePct percent (possibly negative) to every account in
// credit and returns how many accounts were updated.
func (s *Store) ApplyRate(ctx context.Context, ratePct int64) (int64, error) {
	if ratePct > maxRatePct {
		return 0, ErrRateTooHigh
	}
	res, err := s.db.ExecContext(ctx, applyInterest, ratePct)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
