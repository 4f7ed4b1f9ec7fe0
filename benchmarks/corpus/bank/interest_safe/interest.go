// Package interest_safe runs the monthly interest job.
package interest_safe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInvalidRate = errors.New("interest: rate must be between 0 and 100 percent")

const applyInterest = "UPDATE accounts SET balance = balance + balance * ? / 100 WHERE balance > 0"

// Store is the account repository.
type Store struct{ db *sql.DB }

// ApplyInterest credits ratePct percent interest to every account in
// credit and returns how many accounts were updated.
func (s *Store) ApplyInterest(ctx context.Context, ratePct int64) (int64, error) {
	if ratePct < 0 || ratePct > 100 {
		return 0, ErrInvalidRate
	}
	res, err := s.db.ExecContext(ctx, applyInterest, ratePct)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
