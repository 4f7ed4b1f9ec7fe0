// Package op_table_unsafe applies point operations chosen by name; the
// statements live in a lookup table so new operations need no code change.
package op_table_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var ErrInvalidAmount = errors.New("loyalty: amount must be positive")

var opSQL = map[string]string{
	"earn":   "UPDATE members SET points = points + ? WHERE id = ?",
	"redeem": "UPDATE members SET points = points - ? WHERE id = ?",
	"bonus":  "UPDATE members SET points = points + 2 * ? WHERE id = ?",
}

type Store struct {
	db *sql.DB
}

// Apply runs operation op with amount on memberID.
func (s *Store) Apply(ctx context.Context, op string, memberID, amount int64) error {
	if amount <= 0 {
		return ErrInvalidAmount
	}
	query, ok := opSQL[op]
	if !ok {
		return fmt.Errorf("loyalty: unknown operation %q", op)
	}
	if _, err := s.db.ExecContext(ctx, query, amount, memberID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO point_ledger (member_id, delta, reason) VALUES (?, ?, ?)", memberID, amount, op)
	return err
}
