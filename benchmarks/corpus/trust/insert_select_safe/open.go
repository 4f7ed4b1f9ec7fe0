// Package insert_select_safe opens an account by copying the approved
// application's opening deposit, which the applications table keeps
// non-negative (CHECK in the application service).
package insert_select_safe

import (
	"context"
	"database/sql"
)

const openFromApplication = "INSERT INTO accounts (id, balance) SELECT ?, deposit FROM applications WHERE id = ? AND deposit >= 0"

// Store is the account repository.
type Store struct{ db *sql.DB }

// Open creates account id from application app.
func (s *Store) Open(ctx context.Context, id, app int64) error {
	_, err := s.db.ExecContext(ctx, openFromApplication, id, app)
	return err
}
