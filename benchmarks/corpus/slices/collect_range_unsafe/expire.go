// Package collect_range_unsafe expires loyalty points: a repository
// helper collects the members into a slice, the job halves each one.
package collect_range_unsafe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Member is a row of members as the query returned it.
type Member struct {
	ID     int64
	Points int64
}

// Store is the members repository.
type Store struct{ db *sql.DB }

// members returns every member with its points.
func (s *Store) members(ctx context.Context) ([]Member, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, points FROM members ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Member
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.ID, &m.Points); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// ExpireHalf takes half of every member's points, rounding the loss up
// and expiring at least one point.
func (s *Store) ExpireHalf(ctx context.Context) error {
	ms, err := s.members(ctx)
	if err != nil {
		return err
	}
	for _, m := range ms {
		loss := (m.Points + 1) / 2
		if loss == 0 {
			loss = 1
		}
		if _, err := s.db.ExecContext(ctx, "UPDATE members SET points = points - ? WHERE id = ?", loss, m.ID); err != nil {
			return err
		}
	}
	return nil
}
