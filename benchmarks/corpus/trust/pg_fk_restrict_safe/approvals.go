// Package approvals records who approved an invoice; an approved invoice
// must keep its approver.
package approvals

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
)

// Service is the approvals store.
type Service struct{ db *sql.DB }

// Open connects to dsn.
func Open(dsn string) (*Service, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	return &Service{db: db}, nil
}

// Approve marks invoice id approved by user.
func (s *Service) Approve(ctx context.Context, id, user int64) error {
	_, err := s.db.ExecContext(ctx,
		`UPDATE invoices SET status = 'approved', approver_id = $2 WHERE id = $1 AND status = 'pending'`, id, user)
	return err
}

// RemoveUser deletes a user who left the company.
func (s *Service) RemoveUser(ctx context.Context, user int64) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM users WHERE id = $1`, user)
	return err
}
